from intentus_tui.cli import main

main()
