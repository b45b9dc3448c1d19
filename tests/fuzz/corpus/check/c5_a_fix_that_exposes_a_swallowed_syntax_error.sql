SET pipelines.trigger.interval = 1 hour

CREATE OR REFRESHUSE MATERIALIZED VIEW daily AS SELECT 1 AS x;
