"""The coach's HTTP server: the standard library's ThreadingHTTPServer, one static page and a
small JSON API (docs/coach.md lists it).

Safety, by construction:

* the static files are a fixed table of names read from the package at start-up: no
  request path is ever joined to a directory;
* the only file the server reads or writes is the record path given on the command line
  (``--record FILE``); a request says "save" or "load", never where;
* a request body is JSON of at most :data:`MAX_BODY` bytes, sent as ``application/json``
  (so a form on another web site cannot post to it without the browser asking first,
  which this server never answers), to a ``Host`` this server is bound as (a DNS
  rebinding guard);
* every bad request gets a 4xx answer with a JSON ``{"error": ..., "rule": ...}`` naming
  the problem (the rule id of an illegal tap); an unexpected failure a 500 with a JSON
  message and no traceback, and the server goes on serving.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from ..errors import IllegalMoveError, ParseError, QwixxError
from ..validation import load_record, read_record, validate_record
from .coaching import AdviceCache, advice_json, review_json
from .game import CoachGame

__all__ = ["MAX_BODY", "CoachServer", "HTTPError", "is_loopback", "make_server"]

#: The largest request body read (a game record of a long 5-player game is about 60 kB).
MAX_BODY = 2 * 2**20

_STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
           "/index.html": ("index.html", "text/html; charset=utf-8"),
           "/coach.js": ("coach.js", "text/javascript; charset=utf-8"),
           "/coach.css": ("coach.css", "text/css; charset=utf-8")}
_JSON_TYPE = "application/json; charset=utf-8"
_SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'",
}


class HTTPError(Exception):
    """A bad request: its status and the message the answer carries."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and the loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class CoachServer(ThreadingHTTPServer):
    """The server and what every request shares: the game, the record path, the pages."""

    daemon_threads = True
    allow_reuse_address = True
    #: Connections waiting to be accepted (socketserver's default, 5, resets a burst of
    #: 20 clients' connections; the load test of docs/coach.md sends such bursts).
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], game: CoachGame,
                 record_path: str | None = None, seed: int = 0, quiet: bool = True) -> None:
        self.game = game
        self.record_path = record_path
        self.quiet = quiet
        self._seed = seed
        self._seed_lock = threading.Lock()
        self.advice = AdviceCache()
        self.pages = {name: resources.files(__package__).joinpath("static", name).read_bytes()
                      for name, _ in _STATIC.values()}
        if ":" in address[0]:  # an IPv6 address such as ::1
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)

    @property
    def url(self) -> str:
        raw, port = self.server_address[:2]
        host = raw.decode() if isinstance(raw, bytes) else str(raw)
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def next_seed(self) -> int:
        """A new seed for the win rollouts of one request (from ``--seed``)."""
        with self._seed_lock:
            self._seed += 1
            return self._seed

    def allowed_hosts(self) -> frozenset[str] | None:
        """The ``Host`` headers accepted, or None (any) when bound to a public address."""
        host, port = str(self.server_address[0]), self.server_address[1]
        if not is_loopback(host):
            return None
        names = {host, "localhost", "127.0.0.1", "[::1]", f"[{host}]"}
        return frozenset({*names, *(f"{n}:{port}" for n in names)})


class _Handler(BaseHTTPRequestHandler):
    server: CoachServer
    server_version = "qwixx-math-coach"
    sys_version = ""
    timeout = 30  # a client that stops sending does not hold a thread for ever

    # -- plumbing -----------------------------------------------------------------------------
    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"coach: {self.address_string()} {format % args}\n")

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The standard library's own errors (a malformed request line, a header too long),
        as JSON like every other."""
        try:
            status = HTTPStatus(code)
        except ValueError:
            status = HTTPStatus.BAD_REQUEST
        self._json(status, {"error": message or status.phrase, "rule": None,
                            "status": status.value})

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in _SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def _json(self, status: HTTPStatus, data: Any) -> None:
        self._send(status, json.dumps(data, allow_nan=False).encode(), _JSON_TYPE)

    def _path(self) -> str:
        return self.path.split("?", 1)[0].split("#", 1)[0]

    def _check_host(self) -> None:
        allowed = self.server.allowed_hosts()
        host = self.headers.get("Host", "")
        if allowed is not None and host.lower() not in allowed:
            raise HTTPError(HTTPStatus.FORBIDDEN,
                            f"Host {host[:80]!r} is not this server's address (a guard "
                            "against DNS rebinding); open the address the coach printed")

    def _body(self) -> dict[str, Any]:
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            raise HTTPError(HTTPStatus.LENGTH_REQUIRED, "a POST needs a Content-Length")
        if not length_text.isascii() or not length_text.isdigit():
            raise HTTPError(HTTPStatus.BAD_REQUEST,
                            f"Content-Length must be a whole number, not {length_text[:40]!r}")
        length = int(length_text)
        if length > MAX_BODY:
            raise HTTPError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                            f"the request body is {length:,} bytes; at most {MAX_BODY:,}")
        ctype = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            raise HTTPError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                            "the request body must be JSON sent as application/json")
        raw = self.rfile.read(length)
        if len(raw) != length:
            raise HTTPError(HTTPStatus.BAD_REQUEST, "the request body ended early")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise HTTPError(HTTPStatus.BAD_REQUEST,
                            f"the request body is not JSON: {str(exc)[:200]}") from None
        if not isinstance(data, dict):
            raise HTTPError(HTTPStatus.BAD_REQUEST, "the request body must be a JSON object")
        return data

    def _answer(self, method: str) -> None:
        try:
            self._check_host()
            path = self._path()
            if method == "GET":
                self._get(path)
            elif method == "POST":
                self._post(path, self._body())
            else:
                raise HTTPError(HTTPStatus.METHOD_NOT_ALLOWED,
                                f"{method} is not used here; GET or POST")
        except HTTPError as exc:
            self._json(exc.status, {"error": str(exc), "rule": None, "status": exc.status.value})
        except (IllegalMoveError, ParseError) as exc:  # RecordError is a ParseError
            status = HTTPStatus.CONFLICT if isinstance(exc, IllegalMoveError) \
                else HTTPStatus.BAD_REQUEST
            self._json(status, {"error": str(exc), "rule": getattr(exc, "rule", None),
                                "status": status.value})
        except QwixxError as exc:  # a well-formed value no game can reach, a cache problem
            rule = getattr(exc, "rule", None)
            status = HTTPStatus.BAD_REQUEST if rule is not None else HTTPStatus.SERVICE_UNAVAILABLE
            self._json(status, {"error": str(exc), "rule": rule, "status": status.value})
        except Exception as exc:  # a bug: say so without a traceback, and keep serving
            sys.stderr.write(f"coach: internal error on {method} {self._path()[:80]}: "
                             f"{type(exc).__name__}: {exc}\n")
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR,
                       {"error": f"internal error ({type(exc).__name__}); the game is "
                                 "unchanged", "rule": None, "status": 500})

    def _dispatch(self) -> None:
        """Every method the request line may name goes to :meth:`_answer`, which serves GET
        and POST and refuses the others with a 405."""
        self._answer(self.command)

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _dispatch

    # -- the API ------------------------------------------------------------------------------
    def _get(self, path: str) -> None:
        game = self.server.game
        if path in _STATIC:
            name, ctype = _STATIC[path]
            self._send(HTTPStatus.OK, self.server.pages[name], ctype)
        elif path == "/api/state":
            self._json(HTTPStatus.OK, game.view())
        elif path == "/api/record":
            self._json(HTTPStatus.OK, game.record_and_state()[0].to_json())
        elif path == "/api/review":
            self._json(HTTPStatus.OK, review_json(*game.record_and_state()))
        else:
            raise HTTPError(HTTPStatus.NOT_FOUND, f"no page or API at {path[:80]!r}")

    def _post(self, path: str, body: dict[str, Any]) -> None:
        game = self.server.game
        steps = {
            "/api/new": lambda: game.new(body),
            "/api/roll": lambda: game.roll(body.get("roll")),
            "/api/tap": lambda: game.tap_json(body),
            "/api/skip": game.skip,
            "/api/done": game.done,
            "/api/undo": game.undo,
            "/api/record": lambda: game.load(read_record(body)),
            "/api/load": self._load,
        }
        if path in steps:
            steps[path]()
            self._json(HTTPStatus.OK, game.view())
        elif path == "/api/advice":
            rollouts = body.get("rollouts", False)
            if not isinstance(rollouts, bool):
                raise ParseError(f"rollouts must be true or false, not {rollouts!r}")
            state = game.state
            player = body.get("player", state.active)
            if rollouts:
                self._json(HTTPStatus.OK, advice_json(state, player, True,
                                                      self.server.next_seed()))
            else:
                self._send(HTTPStatus.OK, self.server.advice.get(state, player), _JSON_TYPE)
        elif path == "/api/save":
            self._json(HTTPStatus.OK, self._save())
        else:
            raise HTTPError(HTTPStatus.NOT_FOUND, f"no API at {path[:80]!r}")

    def _record_path(self) -> str:
        path = self.server.record_path
        if path is None:
            raise HTTPError(HTTPStatus.CONFLICT,
                            "no record file: start the coach with --record FILE to save and "
                            "load (the page can still download and upload records)")
        return path

    def _load(self) -> None:
        self.server.game.load(load_record(self._record_path()))

    def _save(self) -> dict[str, Any]:
        path = self._record_path()
        record = self.server.game.record_and_state()[0]
        report = validate_record(record, partial=record.result is None)
        text = json.dumps(record.to_json(), indent=1) + "\n"
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise HTTPError(HTTPStatus.CONFLICT,
                            f"cannot write the record file: {exc.strerror or exc}") from None
        return {"saved": path, "turns": len(record.turns), "valid": report.valid,
                "violations": [v.describe(record.players) for v in report.violations]}


def make_server(game: CoachGame, host: str = "127.0.0.1", port: int = 0,
                record_path: str | None = None, seed: int = 0,
                quiet: bool = True) -> CoachServer:
    """A coach server for ``game`` bound to ``host``:``port`` (0: any free port), not yet
    serving (call ``serve_forever``).  ``record_path``: the only file it reads or writes."""
    if not isinstance(game, CoachGame):
        raise ParseError(f"the coach serves a CoachGame, not {type(game).__name__}")
    try:
        return CoachServer((host, port), game, record_path, seed, quiet)
    except OSError as exc:
        raise ParseError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None

