from prune_memory.cli import main

main()
