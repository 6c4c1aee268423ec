from gbnf.cli import main

raise SystemExit(main())
