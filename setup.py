"""The build step pyproject.toml cannot declare: the translations' .po catalogs compiled to the .mo
files gettext reads, into the wheel (or beside their sources for an editable install); and in the
wheel the packaged profiles parsed (croupier.rules.parsed_profiles)."""
import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class build_py_with_catalogs(build_py):
    def run(self):
        super().run()
        sys.path.insert(0, HERE)
        try:
            from croupier.i18n.catalogs import PACKAGED_CATALOGS, compile_all
        finally:
            sys.path.remove(HERE)
        editable = getattr(self, "editable_mode", False)
        target = None if editable else os.path.join(self.build_lib, "croupier", "locale")
        compile_all(PACKAGED_CATALOGS, target)
        if not editable:  # the packaged profiles parsed once, here (croupier.rules.parsed_profiles)
            from croupier.rules.parsed_profiles import write

            write(os.path.join(self.build_lib, "croupier", "rules", "profiles"))


setup(cmdclass={"build_py": build_py_with_catalogs})
