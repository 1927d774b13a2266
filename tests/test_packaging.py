"""The wheel a user installs carries the compiled catalogs: the build step turns every .po into the
.mo file gettext reads, even from a source tree that has none."""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from croupier.i18n.catalogs import compile_po

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_catalog_compiled(tmp_path):
    source = tmp_path / "source"  # never built inside the user's own tree
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "tests", "build", "*.egg-info", "__pycache__", "*.mo", "*.db*"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps",
                    "-w", str(tmp_path / "dist"), str(source)], check=True, capture_output=True)
    [wheel] = (tmp_path / "dist").glob("croupier-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        sources = sorted(name for name in names if name.startswith("croupier/locale/") and name.endswith(".po"))
        assert {"croupier/locale/pt.po", "croupier/locale/ru.po", "croupier/locale/it.po"} <= set(sources)
        for po in sources:
            assert archive.read(po[:-3] + ".mo") == compile_po(archive.read(po), po), po
