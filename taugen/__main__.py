from __future__ import annotations

from taugen.cli import main

main()
