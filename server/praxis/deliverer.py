"""The webhook deliverer: posts the outbox's due deliveries from a bounded pool.

One claiming thread per server process takes due deliveries
(:meth:`Notifications.claim`, a write transaction that counts the try and leases the row)
and hands each to a fixed pool of ``concurrency`` sending threads; it never takes more
than the pool has free, so nothing queues without bound and no thread is made per
delivery. A send is an HTTP POST of the stored body with the Standard Webhooks headers
(:mod:`praxis.core.webhooks`), ``timeout_s`` for the whole exchange, no redirects
followed and no proxy used (the destination is exactly the operator's URL); the
response body is never read past 64 KiB. A 2xx answer delivers; anything else waits
its backoff (exponential, with jitter) and is tried again, until ``max_attempts``
tries have failed: then the delivery is DEAD until an operator redelivers it.

Deliveries are sent outside any write transaction: a slow receiver never holds the
writer's turn. A process that dies mid-try leaves the row leased; once the lease
(2 x ``timeout_s`` + 5 s) passes, any process tries it again with the same
``webhook-id`` (at least once).
"""

from __future__ import annotations

import http.client
import logging
import random
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from praxis.clock import Clock
from praxis.core import webhooks
from praxis.observability import metrics
from praxis.store.notifications.rows import DeliveryRow
from praxis.store.notifications.store import Notifications

log = logging.getLogger("praxis.deliverer")
READ_LIMIT = 64 * 1024
LEASE_MARGIN_MS = 5_000
POLL_S = 1.0
"""How often the claiming thread looks for due deliveries without a wake-up (those of
the installation's other processes, and retries falling due)."""


@dataclass(frozen=True)
class Destination:
    """A webhook destination declared in ``config.json``: its URL and signing key."""

    name: str
    url: str
    key: bytes = field(repr=False)


def destination_problem(destination: Destination) -> str | None:
    """Why the sender cannot use a destination (naming it, never quoting its URL or
    secret), or ``None``: the one check, made on the config at start-up (and by a future
    live reload), when the deliverer is built, and before every try."""
    problem = webhooks.url_problem(destination.url)
    return f"webhooks.{destination.name}: {problem}" if problem else None


@dataclass(frozen=True)
class DeliveryLimits:
    """Bounds of the deliverer (``config.json`` ``notifications``)."""

    concurrency: int = 4
    timeout_s: float = 10.0
    max_attempts: int = 8
    backoff_base_ms: int = 1_000
    backoff_cap_ms: int = 3_600_000

    def __post_init__(self) -> None:
        if not 1 <= self.concurrency <= 64:
            raise ValueError("concurrency must be in [1, 64]")
        if not 0 < self.timeout_s <= 300:
            raise ValueError("timeout_s must be in (0, 300]")
        if not 1 <= self.max_attempts <= 100:
            raise ValueError("max_attempts must be in [1, 100]")
        if not 1 <= self.backoff_base_ms <= self.backoff_cap_ms <= 86_400_000:
            raise ValueError("need 1 <= backoff_base_ms <= backoff_cap_ms <= 86400000")

    @property
    def backoff(self) -> webhooks.Backoff:
        """The retry schedule."""
        return webhooks.Backoff(self.backoff_base_ms, self.backoff_cap_ms, self.max_attempts)

    @property
    def lease_ms(self) -> int:
        """How long a try holds its delivery before another may take it."""
        return int(2 * self.timeout_s * 1000) + LEASE_MARGIN_MS


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args: object, **_kwargs: object) -> None:
        return None  # a 3xx is an answer (a failure), never a new address


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


@dataclass(frozen=True)
class Tried:
    """One try's outcome: the HTTP status (0: none), the error ("" when delivered), and
    whether no retry can fix it (the delivery is DEAD at once)."""

    status: int
    error: str
    final: bool = False


def post(destination: Destination, delivery_id: str, body: bytes, now_s: int, timeout_s: float
         ) -> Tried:  # fmt: skip
    """One signed POST. Its error text never quotes the URL or the secret."""
    try:
        request = urllib.request.Request(destination.url, data=body, method="POST")
    except ValueError:
        return Tried(0, "the destination's url cannot be sent to", final=True)
    request.add_header("content-type", "application/json")
    request.add_header("user-agent", "praxis-webhooks/1")
    for name, value in webhooks.headers(destination.key, delivery_id, now_s, body).items():
        request.add_header(name, value)
    tried = _send_request(request, timeout_s)
    return Tried(tried.status, _without_url(tried.error, destination.url), tried.final)


def _send_request(request: urllib.request.Request, timeout_s: float) -> Tried:
    try:
        with _OPENER.open(request, timeout=timeout_s) as response:
            response.read(READ_LIMIT)
            status = int(response.status)
    except urllib.error.HTTPError as error:
        error.close()
        return Tried(int(error.code), f"HTTP {error.code}")
    except TimeoutError:
        return Tried(0, "timeout")
    except urllib.error.URLError as error:
        reason = error.reason
        if isinstance(reason, TimeoutError):
            return Tried(0, "timeout")
        return Tried(0, f"connection: {reason}")
    except OSError as error:
        return Tried(0, f"connection: {error}")
    except (http.client.InvalidURL, ValueError) as error:
        # The request cannot be made at all (its text may quote the URL: not kept).
        return Tried(0, f"the destination's url cannot be sent to ({type(error).__name__})", True)
    except http.client.HTTPException as error:  # a broken answer: the receiver may recover
        return Tried(0, f"connection: {type(error).__name__}")
    if 200 <= status < 300:
        return Tried(status, "")
    return Tried(status, f"HTTP {status}")


def _without_url(error: str, url: str) -> str:
    """An error text with the URL (and its host part) cut out: what is stored and shown
    names the destination, never its address."""
    netloc = urllib.parse.urlsplit(url).netloc
    for text in (url, netloc):
        if text:
            error = error.replace(text, "<destination>")
    return error


class Deliverer:
    """Claims due deliveries and sends them from a bounded pool until stopped."""

    def __init__(
        self,
        store: Notifications,
        destinations: dict[str, Destination],
        limits: DeliveryLimits,
        clock: Clock,
        rng: random.Random | None = None,
    ) -> None:
        for destination in destinations.values():
            problem = destination_problem(destination)
            if problem:
                raise ValueError(problem)
        self.store = store
        self.destinations = destinations
        self.limits = limits
        self.clock = clock
        self.rng = rng or random.Random()
        self.wake = threading.Event()
        self._stopping = threading.Event()
        self._free = threading.Semaphore(limits.concurrency)
        self._pool = ThreadPoolExecutor(limits.concurrency, thread_name_prefix="praxis-webhook")
        self._thread = threading.Thread(target=self._loop, name="praxis-deliverer", daemon=True)

    def start(self) -> None:
        """Starts the claiming thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stops claiming and waits for the tries in flight (each bounded by its timeout);
        a try cut short is retried after its lease."""
        self._stopping.set()
        self.wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self.wake.clear()
            try:
                wait = self._pass()
            except Exception:  # the database is busy or failing: try again soon
                log.exception("claiming webhook deliveries failed")
                wait = POLL_S
            if wait and not self._stopping.is_set():
                self.wake.wait(wait)

    def _pass(self) -> float:
        """Claims what is due (a read first: no write while nothing is); how long to
        wait before the next pass."""
        due = self.store.next_due()
        now = self.clock.now_ms()
        if due is None:
            return POLL_S
        if due <= now:
            return 0.0 if self._claim() else POLL_S / 10
        return min(POLL_S, max(0.01, (due - now) / 1000))

    def _claim(self) -> int:
        """Claims as many due deliveries as the pool has free threads; how many."""
        free = 0
        while self._free.acquire(blocking=False):
            free += 1
        if not free:
            self.wake.wait(POLL_S)  # a finishing try sets it
            return 0
        try:
            taken = self.store.claim(free, self.limits.lease_ms)
        except BaseException:
            for _ in range(free):
                self._free.release()
            raise
        for _ in range(free - len(taken)):
            self._free.release()
        for delivery in taken:
            self._pool.submit(self._send, delivery)
        return len(taken)

    def _send(self, delivery: DeliveryRow) -> None:
        try:
            self._try(delivery)
        except Exception:
            log.exception("webhook delivery %s failed to settle", delivery.delivery_id)
        finally:
            self._free.release()
            self.wake.set()

    def _try(self, delivery: DeliveryRow) -> None:
        destination = self.destinations.get(delivery.destination)
        unusable = None if destination is None else destination_problem(destination)
        if destination is None:
            status, error, retry = 0, "destination not configured", None
        elif unusable:  # no retry can fix it: DEAD at once, with the reason
            status, error, retry = 0, unusable, None
        else:
            now_s = self.clock.now_ms() // 1000
            body = delivery.body.encode("utf-8")
            tried = post(destination, delivery.delivery_id, body, now_s, self.limits.timeout_s)
            status, error = tried.status, tried.error
            backoff = self.limits.backoff
            retry = None
            if error and not tried.final and not backoff.dead(delivery.attempts):
                retry = self.clock.now_ms() + backoff.delay_ms(delivery.attempts, self.rng.random())
        state = self.store.settle(delivery, status, error, retry)
        if state is not None:
            metrics.webhook_tried(state)
        if error:
            log.info(
                "webhook delivery failed",
                extra={"delivery_id": delivery.delivery_id, "error": error, "state": state},
            )
