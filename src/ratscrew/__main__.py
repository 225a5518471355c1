from ratscrew.cli import main

main()
