-- Silver: typed, validated and de-duplicated records.
CREATE OR REFRESH STREAMING TABLE orders_silver (
  order_id BIGINT NOT NULL COMMENT 'Business key',
  customer_id BIGINT,
  amount DECIMAL(10, 2),
  order_ts TIMESTAMP,
  order_date DATE GENERATED ALWAYS AS (CAST(order_ts AS DATE)),
  status STRING DEFAULT 'new',
  CONSTRAINT valid_amount EXPECT (amount >= 0) ON VIOLATION DROP ROW,
  CONSTRAINT known_customer EXPECT (customer_id IS NOT NULL),
  CONSTRAINT has_id EXPECT (order_id IS NOT NULL) ON VIOLATION FAIL UPDATE
)
PARTITIONED BY (order_date)
COMMENT 'Orders with types applied and bad rows dropped'
AS SELECT
  CAST(order_id AS BIGINT) AS order_id,
  CAST(customer_id AS BIGINT) AS customer_id,
  CAST(amount AS DECIMAL(10, 2)) AS amount,
  to_timestamp(order_time, 'yyyy-MM-dd HH:mm:ss') AS order_ts,
  coalesce(lower(status), 'new') AS status
FROM STREAM(orders_bronze) WITH (skipChangeCommits)
WHERE order_id IS NOT NULL;

CREATE OR REFRESH STREAMING TABLE customers_silver
CLUSTER BY (customer_id)
AS SELECT
  CAST(id AS BIGINT) AS customer_id,
  trim(name) AS name,
  upper(country) AS country,
  CASE WHEN segment IN ('gold', 'platinum') THEN 'premium' ELSE 'standard' END AS tier
FROM STREAM customers_bronze;
