"""A small PDF writer for text pages: A4, Courier, WinAnsi encoding, no compression, so the report
needs no dependency and any PDF reader (or a text search of the file) finds what it says. Pages
are portrait; a table too wide for them goes on landscape pages (`LANDSCAPE_PAGE`)."""
from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import BinaryIO

A4 = (595, 842)  # width, height in points, portrait
MARGIN = 40
FONT_SIZE = 8
LEADING = 10
NEW_PAGE = "\f"  # a line of its own: the next line starts a portrait page
LANDSCAPE_PAGE = "\f landscape"  # a line of its own: the next line starts a landscape page


def columns(landscape: bool = False) -> int:
    """Characters on a line: Courier glyphs are 0.6 em wide."""
    width = A4[1] if landscape else A4[0]
    return int((width - 2 * MARGIN) / (FONT_SIZE * 0.6))


def lines_per_page(landscape: bool = False) -> int:
    height = A4[0] if landscape else A4[1]
    return int((height - 2 * MARGIN) / LEADING)


@dataclass
class Page:
    landscape: bool = False
    lines: list[str] = field(default_factory=list)

    @property
    def size(self) -> tuple[int, int]:
        return (A4[1], A4[0]) if self.landscape else A4


def _escape(line: str) -> bytes:
    text = line.encode("cp1252", errors="replace")
    return text.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


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


def write_pdf(lines: Iterable[str], out: BinaryIO, title: str) -> int:
    """Write the lines as a PDF; returns the number of pages."""
    pages = paginate(lines)
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the pages object exists
    pages_id = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
    info = add(b"<< /Title (" + _escape(title) + b") /Producer (croupier) >>")
    kids = []
    for number, page in enumerate(pages, 1):
        width, height = page.size
        text = [b"BT", f"/F1 {FONT_SIZE} Tf {LEADING} TL {MARGIN} {height - MARGIN} Td".encode()]
        text += [b"(" + _escape(line) + b") Tj T*" for line in page.lines]
        footer = f"{title} - page {number} of {len(pages)}"
        text += [b"ET", f"BT /F1 {FONT_SIZE} Tf {MARGIN} {MARGIN // 2} Td".encode(), b"(" + _escape(footer) + b") Tj ET"]
        stream = b"\n".join(text)
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 %d 0 R >> >> "
                        b"/Contents %d 0 R >>" % (pages_id, width, height, font, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = (b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % kid for kid in kids)
                             + b"] /Count %d >>" % len(kids))
    data = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    data += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    data += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, catalog, info, xref)
    out.write(bytes(data))
    return len(pages)
