S@LECT-- noqa pla iKp-mhenROM t;
T-- noqa pla iKp-mhenROM 