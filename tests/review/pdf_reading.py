"""A PDF read as its reader sees it: qpdf checks its structure, poppler's pdfinfo and pdftotext
give each page's size and text."""
import re
import shutil
import subprocess

import pytest



def _font_installed() -> bool:
    from croupier.export.pdf import FontMissing, font_path

    try:
        font_path()
    except FontMissing:
        return False
    return True


# Writing a PDF needs its font, reading one back qpdf and poppler: Debian packages, not Python ones.
# Without the font the PDF is refused, naming the package (tested on its own).
needs_pdf_tools = pytest.mark.skipif(not (shutil.which("qpdf") and shutil.which("pdftotext")
                                          and shutil.which("pdfinfo") and _font_installed()),
                                     reason="qpdf, poppler-utils (pdftotext, pdfinfo) or fonts-dejavu-core "
                                            "is not installed")


def qpdf_check(path) -> str:
    """qpdf's verdict; raises when the file is not a sound PDF."""
    result = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def pdf_pages(path) -> list[tuple[float, float, list[str]]]:
    """(width, height, text lines as laid out) of each page."""
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(path)], capture_output=True, text=True,
                          check=True).stdout
    sizes = [(float(w), float(h)) for w, h in re.findall(r"Page +\d+ size: +([\d.]+) x ([\d.]+) pts", info)]
    pages = []
    for number, (width, height) in enumerate(sizes, 1):
        text = subprocess.run(["pdftotext", "-layout", "-f", str(number), "-l", str(number), str(path), "-"],
                              capture_output=True, text=True, check=True).stdout
        pages.append((width, height, text.splitlines()))
    return pages


def pdf_text(path) -> str:
    """The whole text, each run of spaces as one (pdftotext spaces columns by their drawn width)."""
    return "\n".join(" ".join(line.split()) for _, _, lines in pdf_pages(path) for line in lines)
