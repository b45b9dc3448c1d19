CREATE OR REFRESH STREAMING TABLE customers_raw
AS SELECT * FROM STREAM read_files('${landing_path}/customers', format => 'csv', header => true);

CREATE OR REFRESH STREAMING TABLE customers;

CREATE FLOW customers_cdc AS AUTO CDC INTO customers
FROM STREAM(customers_raw)
KEYS (customer_id)
SEQUENCE BY updated_at
STORED AS SCD TYPE 2;
