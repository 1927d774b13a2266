"""The pages on the LAN as hw/floor.md puts them: nginx with TLS and a login per pit boss in front of
the floor view's unit, and in front of a table's review unit the same way. The nginx server block is
taken from hw/floor.md itself."""
from __future__ import annotations

import base64
import os
import re
import shutil
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from web_kit import ROOT, UNITS, served, shows, wait_for_port
from test_floor_view_page import UNIT, floor_store
from test_review_page import JOURNAL, UNIT as REVIEW_UNIT

sys.path.insert(0, str(Path(__file__).parents[1] / "floor"))
from floor_kit import throwaway_ca  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import stored_head, write_shift  # noqa: E402

from croupier.floor.broker import free_port  # noqa: E402

PASSWORD = "correct horse 7"


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if not found:
        pytest.skip("no nginx on this machine: apt install nginx (the TLS proxy of hw/floor.md)")
    if not shutil.which("htpasswd"):
        pytest.skip("no htpasswd on this machine: apt install apache2-utils (the pit bosses' logins of hw/floor.md)")
    return found


def documented_server_block(port: int, cert: Path, key: Path, logins: Path, upstream: int) -> str:
    """hw/floor.md's nginx server block, with this test's port, certificate, logins and view."""
    (block,) = re.findall(r"```nginx\n(.*?)```", (ROOT / "hw" / "floor.md").read_text(), re.S)
    replaced = {r"listen \d+ ssl;": f"listen 127.0.0.1:{port} ssl;",
                r"ssl_certificate\s+\S+;": f"ssl_certificate {cert};",
                r"ssl_certificate_key\s+\S+;": f"ssl_certificate_key {key};",
                r"auth_basic_user_file \S+;": f"auth_basic_user_file {logins};",
                r"proxy_pass http://127\.0\.0\.1:\d+;": f"proxy_pass http://127.0.0.1:{upstream};"}
    for pattern, value in replaced.items():
        block, count = re.subn(pattern, value, block)
        assert count == 1, f"hw/floor.md's nginx block has no {pattern!r}"
    return block


@contextmanager
def behind_nginx(tmp_path: Path, unit: str, replace: dict[str, str], env: dict[str, str] | None = None):
    """`unit`'s page behind nginx as documented: (https URL, CA file, nginx's access log). The unit's
    public_url is the proxy's, as hw/floor.md has it set."""
    nginx = nginx_binary()
    ca, cert, key = throwaway_ca(tmp_path)
    logins = tmp_path / "croupier-pit-bosses"
    subprocess.run(["htpasswd", "-B", "-b", "-c", str(logins), "maria", PASSWORD], check=True, capture_output=True)
    port = free_port()
    public = f"https://localhost:{port}"
    unit_url = re.search(r"public_url='[^']*'", (UNITS / unit).read_text()).group(0)  # localhost's, in the unit
    with served(unit, tmp_path, env=env, replace={**replace, unit_url: f"public_url='{public}'"}) as (page_url, _):
        upstream = int(page_url.rsplit(":", 1)[1].strip("/"))
        temp = tmp_path / "nginx"
        temp.mkdir()
        conf = tmp_path / "nginx.conf"
        conf.write_text(
            ("user root;\n" if os.geteuid() == 0 else "")  # its workers read the logins in this test's folder
            + f"daemon off;\npid {temp}/nginx.pid;\nerror_log {tmp_path}/nginx-error.log;\nevents {{}}\n"
            f"http {{\n  access_log {tmp_path}/nginx-access.log;\n"
            + "".join(f"  {kind}_temp_path {temp}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
            + documented_server_block(port, cert, key, logins, upstream) + "}\n")
        proxy = subprocess.Popen([nginx, "-p", str(temp), "-c", str(conf), "-e", str(tmp_path / "nginx-error.log")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, proxy)
            yield public + "/", ca, tmp_path / "nginx-access.log"
        finally:
            proxy.terminate()
            try:
                proxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proxy.kill()
                proxy.wait()


@pytest.fixture
def behind_login(tmp_path):
    """The floor view's unit behind nginx as documented."""
    with behind_nginx(tmp_path, UNIT, {}, env={"CROUPIER_FLOOR_STORE": floor_store(tmp_path)}) as proxied:
        yield proxied


@pytest.fixture
def review_behind_login(tmp_path):
    """A table's review unit behind nginx as documented, on a journal the session wrote: (https URL,
    CA file, nginx's access log, the journal's head)."""
    db = tmp_path / "journal.db"
    write_shift(db).close()
    with behind_nginx(tmp_path, REVIEW_UNIT, {JOURNAL: str(db)}) as proxied:
        yield (*proxied, stored_head(db)[0])


def status(url: str, ca: Path, login: tuple[str, str] | None) -> tuple[int, str]:
    request = urllib.request.Request(url)
    if login:
        request.add_header("Authorization", "Basic " + base64.b64encode(":".join(login).encode()).decode())
    try:
        with urllib.request.urlopen(request, context=ssl.create_default_context(cafile=str(ca)), timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, ""


def test_the_page_on_the_lan_asks_each_pit_boss_for_their_login(behind_login):
    url, ca, _ = behind_login
    assert status(url, ca, None)[0] == 401
    assert status(url, ca, ("maria", "wrong"))[0] == 401
    assert status(url, ca, ("pedro", PASSWORD))[0] == 401
    code, page = status(url, ca, ("maria", PASSWORD))
    assert code == 200 and "croupier floor" in page and f"wss://localhost:{url.rsplit(':', 1)[1].strip('/')}/ws" in page


def test_a_pit_boss_logged_in_sees_the_floor_through_the_proxy(behind_login, browser):
    url, _, access_log = behind_login
    with logged_in(browser, url) as page:
        shows(page, "T1", "OPEN", "croupier Ana")  # its websocket went through the proxy with the login
    assert " maria " in access_log.read_text()  # nginx's access log names who looked


def test_a_tables_review_on_the_lan_is_behind_the_same_login(review_behind_login, browser):
    url, ca, access_log, head = review_behind_login
    assert status(url, ca, None)[0] == 401
    assert status(url, ca, ("maria", "wrong"))[0] == 401
    code, page = status(url, ca, ("maria", PASSWORD))
    assert code == 200 and "croupier review" in page and f"wss://localhost:{url.rsplit(':', 1)[1].strip('/')}/ws" in page
    with logged_in(browser, url) as page:
        shows(page, "(read-only)", f"{head} of {head} events")  # the review's websocket, through the proxy
        page.focus(".xterm-helper-textarea")
        page.keyboard.type("/kind:spin-voided\n")  # and the keys typed there reach it
        shows(page, f"1 of {head} events", "spin 3: VOID (chip-fell")
    assert " maria " in access_log.read_text()


@contextmanager
def logged_in(browser, url: str):
    """A tab logged in as maria, opened at `url`. The casino's CA is not the browser's here: the certificate
    is checked with `status`."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, ignore_https_errors=True,
                                  http_credentials={"username": "maria", "password": PASSWORD})
    try:
        page = context.new_page()
        page.goto(url)
        yield page
    finally:
        context.close()
