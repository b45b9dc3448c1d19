-- A CDC pipeline: a change feed applied as SCD type 1 and type 2, and snapshots.
USE CATALOG main;
USE SCHEMA crm;

CREATE OR REFRESH STREAMING TABLE customers_current;

CREATE FLOW customers_current_flow AS
AUTO CDC INTO customers_current
FROM STREAM(crm_raw.customer_changes)
KEYS (customer_id)
IGNORE NULL UPDATES
APPLY AS DELETE WHEN operation = 'DELETE'
APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'
SEQUENCE BY event_ts
COLUMNS * EXCEPT (operation, event_ts)
STORED AS SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE customers_history;

CREATE FLOW customers_history_flow AS
AUTO CDC INTO customers_history
FROM STREAM(crm_raw.customer_changes)
KEYS (customer_id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY struct(event_ts, change_id)
COLUMNS * EXCEPT (operation)
STORED AS SCD TYPE 2
TRACK HISTORY ON * EXCEPT (last_login);

-- An inline AUTO CDC flow on the table definition itself.
CREATE OR REFRESH STREAMING TABLE addresses
FLOW AUTO CDC
FROM STREAM(crm_raw.address_changes)
KEYS (address_id)
SEQUENCE BY updated_at
STORED AS SCD TYPE 1;
