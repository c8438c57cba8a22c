module inlinedemo

go 1.19
