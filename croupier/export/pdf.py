"""A small PDF writer for text pages: A4, Courier, WinAnsi encoding, no compression, so the report
needs no dependency and any PDF reader (or a text search of the file) finds what it says."""
from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import BinaryIO

PAGE_WIDTH, PAGE_HEIGHT = 595, 842  # A4 in points
MARGIN = 40
FONT_SIZE = 8
LEADING = 10
COLUMNS = int((PAGE_WIDTH - 2 * MARGIN) / (FONT_SIZE * 0.6))  # Courier glyphs are 0.6 em wide
LINES_PER_PAGE = int((PAGE_HEIGHT - 2 * MARGIN) / LEADING)


def _escape(line: str) -> bytes:
    text = line.encode("cp1252", errors="replace")
    return text.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def paginate(lines: Iterable[str]) -> list[list[str]]:
    """Lines wrapped to the page width and cut into pages; a form feed starts a new page."""
    pages: list[list[str]] = [[]]
    for line in lines:
        if line == "\f":
            if pages[-1]:
                pages.append([])
            continue
        for piece in textwrap.wrap(line, COLUMNS, subsequent_indent="    ", drop_whitespace=False) or [""]:
            if len(pages[-1]) == LINES_PER_PAGE:
                pages.append([])
            pages[-1].append(piece)
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
        text = [b"BT", f"/F1 {FONT_SIZE} Tf {LEADING} TL {MARGIN} {PAGE_HEIGHT - MARGIN} Td".encode()]
        text += [b"(" + _escape(line) + b") Tj T*" for line in page]
        footer = f"{title} - page {number} of {len(pages)}"
        text += [b"ET", f"BT /F1 {FONT_SIZE} Tf {MARGIN} {MARGIN // 2} Td".encode(), b"(" + _escape(footer) + b") Tj ET"]
        stream = b"\n".join(text)
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 %d 0 R >> >> "
                        b"/Contents %d 0 R >>" % (pages_id, PAGE_WIDTH, PAGE_HEIGHT, font, content)))
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
