"""Server-side sessions, CSRF tokens and one-time sign-in codes.

A session holds the signed-in principal's bearer token on the console's side only: the
browser holds a random session id in an ``HttpOnly``, ``SameSite=Strict`` cookie, and
every state-changing form carries the session's CSRF token. Nothing here grows without
a bound: past ``max_sessions`` the least recently used session is dropped, and one-time
codes are capped the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

MAX_SESSIONS = 1_000
MAX_ONE_TIME_CODES = 100
IDLE_TIMEOUT_S = 30 * 60
ABSOLUTE_TIMEOUT_S = 12 * 3600
ONE_TIME_CODE_TTL_S = 10 * 60


@dataclass(frozen=True)
class Session:
    """One signed-in browser.

    Attributes:
        session_id: The cookie value (random, 256 bits).
        token: The principal's bearer token; never sent to the browser.
        principal_id: Who the token authenticates as (asked of the server at sign-in).
        csrf_token: The token every state-changing form must carry.
        created_at: When the session began (monotonic seconds).
        last_seen: When it was last used (monotonic seconds).
    """

    session_id: str
    token: str = field(repr=False)
    principal_id: str
    csrf_token: str
    created_at: float
    last_seen: float


@dataclass(frozen=True)
class Limits:
    """Bounds and lifetimes of sessions and one-time codes (seconds)."""

    max_sessions: int = MAX_SESSIONS
    idle_timeout_s: float = IDLE_TIMEOUT_S
    absolute_timeout_s: float = ABSOLUTE_TIMEOUT_S
    max_codes: int = MAX_ONE_TIME_CODES
    code_ttl_s: float = ONE_TIME_CODE_TTL_S


class SessionStore:
    """In-memory sessions keyed by the SHA-256 of their id (the id itself is not kept)."""

    def __init__(self, clock: Callable[[], float], limits: Limits | None = None) -> None:
        self._clock = clock
        self._limits = limits or Limits()
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._codes: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def limits(self) -> Limits:
        """The bounds in force."""
        return self._limits

    def create(self, token: str, principal_id: str) -> Session:
        """Starts a session for a verified token; evicts the least recently used past the cap."""
        now = self._clock()
        session = Session(
            session_id=secrets.token_urlsafe(32),
            token=token,
            principal_id=principal_id,
            csrf_token=secrets.token_urlsafe(32),
            created_at=now,
            last_seen=now,
        )
        with self._lock:
            self._sessions[_key(session.session_id)] = session
            while len(self._sessions) > self._limits.max_sessions:
                self._sessions.popitem(last=False)
        return session

    def get(self, session_id: str) -> Session | None:
        """The live session with this id (touching it), or None when unknown or expired."""
        if not session_id:
            return None
        key = _key(session_id)
        now = self._clock()
        with self._lock:
            session = self._sessions.get(key)
            if session is None:
                return None
            if self._expired(session, now):
                del self._sessions[key]
                return None
            touched = replace(session, last_seen=now)
            self._sessions[key] = touched
            self._sessions.move_to_end(key)
            return touched

    def alive(self, session_id: str) -> bool:
        """Whether a session is still live, without touching it (a live view open in a
        browser does not keep an idle session alive)."""
        now = self._clock()
        with self._lock:
            session = self._sessions.get(_key(session_id))
            return session is not None and not self._expired(session, now)

    def delete(self, session_id: str) -> None:
        """Ends a session (sign-out)."""
        with self._lock:
            self._sessions.pop(_key(session_id), None)

    def __len__(self) -> int:
        return len(self._sessions)

    def _expired(self, session: Session, now: float) -> bool:
        return (
            now - session.last_seen > self._limits.idle_timeout_s
            or now - session.created_at > self._limits.absolute_timeout_s
        )

    # --- one-time sign-in codes -----------------------------------------------------

    def issue_code(self, token: str) -> str:
        """A single-use code that signs its holder in with ``token`` within the code TTL."""
        code = secrets.token_urlsafe(32)
        with self._lock:
            self._codes[_key(code)] = (token, self._clock() + self._limits.code_ttl_s)
            while len(self._codes) > self._limits.max_codes:
                self._codes.popitem(last=False)
        return code

    def redeem_code(self, code: str) -> str | None:
        """The token of an unexpired, unused code, consuming it; None otherwise."""
        with self._lock:
            entry = self._codes.pop(_key(code), None)
        if entry is None or self._clock() >= entry[1]:
            return None
        return entry[0]


def csrf_matches(session: Session, submitted: str) -> bool:
    """Whether a submitted CSRF token is this session's (constant-time)."""
    return bool(submitted) and hmac.compare_digest(
        session.csrf_token.encode("utf-8"), submitted.encode("utf-8")
    )


def _key(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
