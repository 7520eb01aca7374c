from __future__ import annotations

from taugen.cli import run

run(prog_name="taugen")  # `python -m taugen` is taugen: its usage lines, _TAUGEN_COMPLETE, its end
