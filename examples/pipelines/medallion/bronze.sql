-- Bronze: raw files landed by the ingestion job, read incrementally with Auto Loader.
SET pipelines.trigger.interval = '1 hour';

CREATE OR REFRESH STREAMING TABLE orders_bronze
COMMENT 'Raw order events, one row per JSON record'
TBLPROPERTIES ('quality' = 'bronze', delta.enableChangeDataFeed = true)
AS SELECT
  *,
  _metadata.file_path AS source_file,
  current_timestamp() AS ingested_at
FROM STREAM read_files(
  '/Volumes/${catalog}/landing/orders/',
  format => 'json',
  schemaHints => 'order_id BIGINT, amount DECIMAL(10,2)'
);

CREATE OR REFRESH STREAMING TABLE customers_bronze
AS SELECT * FROM STREAM read_files('/Volumes/${catalog}/landing/customers/', format => 'csv', header => true);
