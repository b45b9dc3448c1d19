-- A managed table written by several flows: live ingestion, a backfill and a second source.
CREATE TABLE events (
  event_id BIGINT GENERATED ALWAYS AS IDENTITY (START WITH 1 INCREMENT BY 1),
  source STRING NOT NULL,
  event_type STRING,
  payload STRING,
  event_ts TIMESTAMP,
  CONSTRAINT has_type EXPECT (event_type IS NOT NULL) ON VIOLATION DROP ROW
)
CLUSTER BY (event_ts)
TBLPROPERTIES ('pipelines.autoOptimize.managed' = 'true')
FLOW INSERT BY NAME
  SELECT 'web' AS source, event_type, payload, event_ts
  FROM STREAM read_files('/Volumes/main/raw/web_events/', format => 'json');

CREATE FLOW events_mobile AS
INSERT INTO events BY NAME
SELECT 'mobile' AS source, type AS event_type, to_json(body) AS payload, ts AS event_ts
FROM STREAM(main.raw.mobile_events) WITH (maxFilesPerTrigger = 100);

CREATE FLOW events_backfill AS
INSERT ONCE INTO events BY NAME
SELECT 'archive' AS source, event_type, payload, event_ts
FROM main.archive.events_2023
WHERE event_ts BETWEEN TIMESTAMP '2023-01-01 00:00:00' AND TIMESTAMP '2023-12-31 23:59:59';

CREATE OR REFRESH MATERIALIZED VIEW events_per_hour AS
SELECT date_trunc('HOUR', event_ts) AS hour, source, count(*) AS events
FROM events
GROUP BY date_trunc('HOUR', event_ts), source;
