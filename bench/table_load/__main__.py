from bench.table_load.cli import main

main()
