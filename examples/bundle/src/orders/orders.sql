-- The orders pipeline: its schema is `retail`, so `retail.orders` is `orders`.
CREATE OR REFRESH STREAMING TABLE orders (
  CONSTRAINT valid_id EXPECT (order_id IS NOT NULL) ON VIOLATION DROP ROW
);

CREATE FLOW orders_from_landing AS INSERT INTO retail.orders BY NAME
SELECT * FROM STREAM read_files('${landing_path}/orders', format => 'json');
