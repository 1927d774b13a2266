"""The PDF writer for text pages: A4, a monospaced Unicode font embedded in the file (DejaVu Sans
Mono, which Debian and Raspberry Pi OS ship in `fonts-dejavu-core`), drawn with fpdf2, so any name
(Cyrillic, Greek, accents) prints as typed and a text search of the PDF finds it. Pages are
portrait; a table too wide for them goes on landscape pages (`LANDSCAPE_PAGE`)."""
from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from croupier.i18n import _

A4 = (595.28, 841.89)  # width, height in points, portrait
MARGIN = 40
FONT_SIZE = 8
LEADING = 10
GLYPH_EM = 0.602  # DejaVu Sans Mono's advance: 1233 of 2048 units
FONT_FILE = "DejaVuSansMono.ttf"
FONT_FOLDERS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"),
                Path("/usr/share/fonts/TTF"), Path("/usr/local/share/fonts"))
NEW_PAGE = "\f"  # a line of its own: the next line starts a portrait page
LANDSCAPE_PAGE = "\f landscape"  # a line of its own: the next line starts a landscape page


class FontMissing(OSError):
    """The PDF's font is not installed: nothing is written."""


def font_path(folders: Iterable[Path] | None = None) -> Path:
    """The font file, from the folders where Debian-based systems install it."""
    folders = tuple(FONT_FOLDERS if folders is None else folders)
    for folder in folders:
        if (folder / FONT_FILE).is_file():
            return folder / FONT_FILE
    raise FontMissing(_("the PDF needs the font {font}, found in none of {folders}: install it "
                        "(sudo apt install fonts-dejavu-core)").format(font=FONT_FILE,
                                                                       folders=", ".join(str(f) for f in folders)))


def columns(landscape: bool = False) -> int:
    """Characters on a line."""
    width = A4[1] if landscape else A4[0]
    return int((width - 2 * MARGIN) / (FONT_SIZE * GLYPH_EM))


def lines_per_page(landscape: bool = False) -> int:
    height = A4[0] if landscape else A4[1]
    return int((height - 2 * MARGIN) / LEADING)


@dataclass
class Page:
    landscape: bool = False
    lines: list[str] = field(default_factory=list)


def paginate(lines: Iterable[str]) -> list[Page]:
    """Lines wrapped to the page width and cut into pages; NEW_PAGE and LANDSCAPE_PAGE start one."""
    pages = [Page()]
    for line in lines:
        if line in (NEW_PAGE, LANDSCAPE_PAGE):
            landscape = line == LANDSCAPE_PAGE
            if pages[-1].lines:
                pages.append(Page(landscape))
            pages[-1].landscape = landscape
            continue
        page = pages[-1]
        # A line's own indent is kept; the spaces where it breaks are dropped.
        for piece in textwrap.wrap(line, columns(page.landscape), subsequent_indent="    ") or [""]:
            if len(pages[-1].lines) == lines_per_page(page.landscape):
                pages.append(Page(page.landscape))
            pages[-1].lines.append(piece)
    return pages


def write_pdf(lines: Iterable[str], out: BinaryIO, title: str, font: Path | None = None) -> int:
    """Write the lines as a PDF; returns the number of pages. Raises FontMissing, before writing
    anything, when the font is not installed."""
    from fpdf import FPDF

    font = font or font_path()
    pages = paginate(lines)
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    pdf.set_creator("croupier")
    pdf.add_font("mono", "", str(font))
    for number, page in enumerate(pages, 1):
        pdf.add_page(orientation="L" if page.landscape else "P")
        pdf.set_font("mono", size=FONT_SIZE)
        for row, line in enumerate(page.lines):
            if line:
                pdf.text(MARGIN, MARGIN + FONT_SIZE + row * LEADING, line)
        pdf.text(MARGIN, pdf.h - MARGIN / 2,
                 _("{title} - page {number} of {pages}").format(title=title, number=number, pages=len(pages)))
    out.write(bytes(pdf.output()))
    return len(pages)
