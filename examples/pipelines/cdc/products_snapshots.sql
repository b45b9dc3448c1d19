-- Snapshot CDC: the source only delivers full daily snapshots as files.
CREATE OR REFRESH STREAMING TABLE products (
  product_id BIGINT,
  name STRING,
  price DECIMAL(12, 2),
  snapshot_date DATE
);

CREATE FLOW products_snapshots AS
AUTO CDC INTO products
FROM SNAPSHOT (
  SELECT product_id, name, price, snapshot_date
  FROM read_files('/Volumes/main/erp/products/', format => 'parquet')
  WHERE _metadata.file_path = (SELECT version.path FROM current_snapshot_version())
)
WITH VERSION (
  SELECT struct(modification_time, path) AS version
  FROM list_files('/Volumes/main/erp/products/')
  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())
     OR struct(modification_time, path) > (SELECT version FROM last_snapshot_version())
  ORDER BY modification_time, path
  LIMIT 1
)
KEYS (product_id)
STORED AS SCD TYPE 2
TRACK HISTORY ON price, name;

-- A one-time initial load of a second table from a snapshot table.
CREATE OR REFRESH STREAMING TABLE suppliers;

CREATE FLOW suppliers_initial_load AS
AUTO CDC ONCE INTO suppliers
FROM SNAPSHOT (SELECT * FROM main.erp.suppliers_snapshot)
KEYS (supplier_id);
