"""The retry-receipt set_interval handler as an HTTP service: Python 3 standard library only.

Started by receiptcheck from service.json: it listens on 127.0.0.1:$PORT and runs on the SQLite
file at $DATABASE_PATH, which the harness creates, resets and inspects. One request:

    POST /set-interval
    Idempotency-Key: <request id>
    X-User: alice / X-Workspace: team-a / X-Scopes: automation:write (space-separated)
    {"automationId": 1, "expectedVersion": 1, "intervalMinutes": 30}

Answers: 200 with the row written (and `Idempotent-Replayed: true` on a replay), 400 {"field"}
for an invalid argument, 403 forbidden, 404 unavailable, 409 conflict, 422 key reuse, 500 error.

With --race the lookup and the write run in two transactions: two calls with one key can both
miss the receipt and then both try to write, which concurrent mode catches.
"""
import json
import os
import re
import sqlite3
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOL = "set_interval.v1"
SCOPE = "automation:write"
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
SAFE_MAX = 2**53 - 1
RACE = "--race" in sys.argv[1:]
DATABASE = os.environ["DATABASE_PATH"]


class Answer(Exception):
    """A refusal or an invalid argument, as the HTTP status and body that report it."""

    def __init__(self, status, body):
        super().__init__(body)
        self.status = status
        self.body = body


def positive_int(value):
    # bool is an int in Python, and JSON's floats are not integers; the contract wants safe ones.
    return type(value) is int and 1 <= value <= SAFE_MAX


def validate(principal, request_id, args):
    user, workspace, scopes = principal
    if SCOPE not in scopes:
        raise Answer(403, {"reason": "forbidden"})
    if not isinstance(request_id, str) or not REQUEST_ID.fullmatch(request_id):
        raise Answer(400, {"field": "requestId"})
    for field in ("automationId", "expectedVersion"):
        if not positive_int(args.get(field)):
            raise Answer(400, {"field": field})
    interval = args.get("intervalMinutes")
    if type(interval) is not int or not 5 <= interval <= 1440:
        raise Answer(400, {"field": "intervalMinutes"})
    return {"id": args["automationId"], "version": args["expectedVersion"], "interval": interval}


def connect():
    # Autocommit: the handler says where each transaction begins and ends.
    return sqlite3.connect(DATABASE, timeout=5, isolation_level=None)


def lookup(db, key, payload):
    """The current access check, then the receipt: its stored result, or None."""
    workspace = key[0]
    found = db.execute(
        "SELECT 1 FROM automations WHERE id = ? AND workspace = ?", (payload["id"], workspace)
    ).fetchone()
    if found is None:
        raise Answer(404, {"reason": "unavailable"})
    old = db.execute(
        "SELECT payload, result FROM receipts"
        " WHERE workspace = ? AND user_id = ? AND tool = ? AND request_id = ?",
        key,
    ).fetchone()
    if old is None:
        return None
    if json.loads(old[0]) != payload:
        raise Answer(422, {"reason": "key reuse"})
    return json.loads(old[1])


def write(db, key, payload):
    """The version check, the row change and the receipt: the fresh result."""
    row = db.execute(
        "UPDATE automations SET interval_minutes = ?, version = version + 1"
        " WHERE id = ? AND workspace = ? AND version = ?"
        " RETURNING id, interval_minutes, version",
        (payload["interval"], payload["id"], key[0], payload["version"]),
    ).fetchone()
    if row is None:
        raise Answer(409, {"reason": "conflict"})
    result = {"id": row[0], "intervalMinutes": row[1], "version": row[2]}
    db.execute(
        "INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?)",
        (*key, json.dumps(payload, sort_keys=True), json.dumps(result, sort_keys=True)),
    )
    return result


def transaction(db, begin, work):
    db.execute(begin)
    try:
        value = work()
        db.execute("COMMIT")
        return value
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def set_interval(principal, request_id, args):
    """(result, replayed), or raises Answer; any other exception is an error (500)."""
    payload = validate(principal, request_id, args)
    key = (principal[1], principal[0], TOOL, request_id)
    db = connect()
    try:
        if RACE:
            # The planted bug: nothing holds the lock between the lookup and the write.
            stored = transaction(db, "BEGIN", lambda: lookup(db, key, payload))
            if stored is not None:
                return stored, True
            return transaction(db, "BEGIN IMMEDIATE", lambda: write(db, key, payload)), False

        def both():
            stored = lookup(db, key, payload)
            return (stored, True) if stored is not None else (write(db, key, payload), False)

        # One write transaction, taken before the first read.
        return transaction(db, "BEGIN IMMEDIATE", both)
    finally:
        db.close()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != "/set-interval":
            return self.answer(404, {"error": "no such route"})
        try:
            length = int(self.headers.get("Content-Length", "0"))
            args = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(args, dict):
                args = {}
            principal = (
                self.headers.get("X-User", ""),
                self.headers.get("X-Workspace", ""),
                set(self.headers.get("X-Scopes", "").split()),
            )
            result, replayed = set_interval(principal, self.headers.get("Idempotency-Key"), args)
            self.answer(200, result, {"Idempotent-Replayed": "true"} if replayed else {})
        except Answer as answer:
            self.answer(answer.status, answer.body)
        except Exception as error:  # the receipt store failing, a lock not got in time
            self.answer(500, {"error": f"{type(error).__name__}: {error}"})

    def answer(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # one line per request would bury what matters


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler)
    server.daemon_threads = True
    server.serve_forever()
