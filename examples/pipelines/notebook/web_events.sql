-- Databricks notebook source
-- MAGIC %md
-- MAGIC # Web events
-- MAGIC A notebook exported as a `.sql` file: each cell runs on its own, so a cell needs no `;`.

-- COMMAND ----------

SET pipelines.trigger.interval = '15 minutes'

-- COMMAND ----------

-- DBTITLE 1,Bronze: events as they land
CREATE OR REFRESH STREAMING TABLE web_events_raw
AS SELECT *, _metadata.file_path AS source_file
FROM STREAM read_files('/Volumes/main/landing/web_events', format => 'json')

-- COMMAND ----------

-- DBTITLE 1,Silver: sessions per visitor
CREATE OR REFRESH MATERIALIZED VIEW web_sessions (
  CONSTRAINT has_visitor EXPECT (visitor_id IS NOT NULL) ON VIOLATION DROP ROW
)
AS SELECT visitor_id, session_window(event_time, '30 minutes') AS session, count(*) AS events
FROM web_events_raw
GROUP BY visitor_id, session_window(event_time, '30 minutes')
