-- A Delta table's own change feed (the CHANGES clause), read as a named stream and applied to a
-- mirror as SCD type 1; and a bounded range of the feed kept for an audit.
CREATE TEMPORARY VIEW order_changes AS
SELECT * FROM STREAM sales.orders CHANGES FROM VERSION 0 IDENTIFIED BY orders_feed
WHERE _change_type != 'update_preimage';

CREATE OR REFRESH STREAMING TABLE orders_mirror;

CREATE FLOW orders_mirror_flow AS
AUTO CDC INTO orders_mirror
FROM STREAM(order_changes)
KEYS (order_id)
APPLY AS DELETE WHEN _change_type = 'delete'
SEQUENCE BY _commit_version
COLUMNS * EXCEPT (_change_type, _commit_version, _commit_timestamp)
STORED AS SCD TYPE 1;

CREATE OR REFRESH MATERIALIZED VIEW march_order_changes AS
SELECT order_id, _change_type, _commit_timestamp
FROM sales.orders CHANGES FROM TIMESTAMP '2026-03-01' TO TIMESTAMP '2026-04-01' EXCLUSIVE;
