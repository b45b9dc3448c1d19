CREATE OR REFRESH MATERIALIZED VIEW daily_orders
COMMENT 'Orders per day'
AS SELECT CAST(order_ts AS DATE) AS order_date, count(*) AS orders
FROM orders
GROUP BY ALL;
