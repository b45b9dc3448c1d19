-- Gold: business aggregates, recomputed as materialized views.
CREATE OR REFRESH MATERIALIZED VIEW daily_revenue
COMMENT 'Revenue per day and country'
AS SELECT
  o.order_date,
  c.country,
  count(*) AS orders,
  count(DISTINCT o.customer_id) AS customers,
  sum(o.amount) AS revenue
FROM orders_silver o
JOIN customers_silver c ON o.customer_id = c.customer_id
WHERE o.status <> 'cancelled'
GROUP BY o.order_date, c.country
HAVING sum(o.amount) > 0;

CREATE OR REFRESH PRIVATE MATERIALIZED VIEW top_customers
AS WITH ranked AS (
  SELECT customer_id, sum(amount) AS total
  FROM orders_silver
  GROUP BY customer_id
)
SELECT r.customer_id, c.name, r.total
FROM ranked r
LEFT JOIN customers_silver c USING (customer_id)
ORDER BY r.total DESC
LIMIT 100;

CREATE TEMPORARY VIEW recent_orders
AS SELECT * FROM orders_silver WHERE order_date >= date_sub(current_date(), 7);
