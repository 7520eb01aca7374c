from __future__ import annotations

from taugen.cli import main

main(prog_name="taugen")  # `python -m taugen` is taugen: its usage lines, _TAUGEN_COMPLETE
