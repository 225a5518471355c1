"""Where the lab's work runs: in this process, in local worker processes, or on a Dask cluster.

The lab cuts a run into tasks whose results depend only on their arguments (each game, deal block or
restart draws from a seed of its own), so any of the three places gives the same figures. The commands
ask for a place with :func:`open_runner` and hand their tasks to :meth:`Runner.unordered` (results as they
come, for totals that do not care about order) or :meth:`Runner.ordered` (results in task order). Both keep
only a few tasks in flight, so the parent's memory does not grow with the length of the run.

Dask is imported here, and only when a scheduler address is given: the engine and the rest of the command
line run without it.
"""

from __future__ import annotations

import logging
import signal
import socket
import ssl
import struct
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from ratscrew.errors import MalformedInput

R = TypeVar("R")

# How long to wait for a scheduler to answer, and then for it to have at least one worker.
CONNECT_SECONDS = 5.0
WORKER_WAIT_SECONDS = 10.0
EXAMPLE_ADDRESS = "tcp://127.0.0.1:8786"
INSTALL_HINT = "pip install 'ratscrew[cluster]'"
SCHEMES = ("tcp", "tls")
TLS_SETTINGS = (
    "the cluster's CA certificate and this client's certificate and key in Dask's configuration "
    "(distributed.comm.tls.ca-file, .client.cert and .client.key; or the variables "
    "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, __CLIENT__CERT and __CLIENT__KEY), or a tcp:// address"
)


class ClusterError(MalformedInput):
    """A scheduler that cannot be used: a bad address, none there, no workers, or workers that failed."""


class Runner:
    """Runs tasks (a module-level function and its arguments) somewhere and hands back their results.

    ``slots`` is how many tasks can run at once, and ``in_flight`` how many the helpers keep submitted: in this
    process a task runs as it is submitted, so one at a time; elsewhere more than the slots, so no worker waits.
    """

    slots: int = 1
    in_flight: int = 1

    # A future here is a concurrent.futures.Future, or a Dask future on a cluster: the methods below are all
    # that the helpers do with one.
    def submit(self, fn: Callable[..., R], *args: Any) -> Any:
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args))
        except Exception as exc:  # a Ctrl-C is not the task's result: it stops the run here and now
            future.set_exception(exc)
        return future

    def first_done(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        """(the futures done, the others), once at least one is done."""
        done, rest = wait(pending, return_when=FIRST_COMPLETED)
        return done, rest

    def result(self, future: Any) -> Any:
        return future.result()

    def drop(self, futures: Iterable[Any]) -> None:
        """Give up on tasks whose results will not be read."""
        for future in futures:
            future.cancel()

    def unordered(self, fn: Callable[..., R], tasks: Iterable[tuple[Any, ...]]) -> Generator[R, None, None]:
        """Each task's result as soon as it is done, in whatever order they finish."""
        todo = iter(tasks)
        pending: set[Any] = set()
        try:
            while True:
                for args in _take(todo, self.in_flight - len(pending)):
                    pending.add(self.submit(fn, *args))
                if not pending:
                    return
                done, pending = self.first_done(pending)
                for future in done:
                    result: R = self.result(future)
                    yield result
        finally:
            self.drop(pending)

    def ordered(self, fn: Callable[..., R], tasks: Iterable[tuple[Any, ...]]) -> Generator[R, None, None]:
        """Each task's result in the order of ``tasks``; ``tasks`` is read only as far as needed.

        Closing the iterator early drops the tasks still in flight (their results are never read).
        """
        todo = iter(tasks)
        pending: deque[Any] = deque()
        try:
            while True:
                for args in _take(todo, self.in_flight - len(pending)):
                    pending.append(self.submit(fn, *args))
                if not pending:
                    return
                result: R = self.result(pending.popleft())
                yield result
        finally:
            self.drop(pending)


def _take(todo: Iterator[tuple[Any, ...]], count: int) -> Iterator[tuple[Any, ...]]:
    for _ in range(count):
        args = next(todo, None)
        if args is None:
            return
        yield args


def _quiet_worker() -> None:
    """Local workers leave Ctrl-C to the parent, which stops the run (and keeps a search's state)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _PoolRunner(Runner):
    def __init__(self, pool: Executor, slots: int) -> None:
        self.pool = pool
        self.slots = slots
        self.in_flight = 2 * slots

    def submit(self, fn: Callable[..., R], *args: Any) -> Any:
        return self.pool.submit(fn, *args)


class _DaskRunner(Runner):
    """Tasks on a Dask cluster. Results are fetched in the background as tasks finish (``as_completed``), so
    reading them in order does not wait for one round trip after another; ``close`` cancels what is left and
    lets the fetches settle before the client goes, so nothing is left to fail (and print) afterwards."""

    def __init__(self, client: Any, slots: int, address: str) -> None:
        from distributed import as_completed

        self.client = client
        self.slots = slots
        # A task's round trip through the scheduler takes a while: more in flight keeps the workers busy.
        self.in_flight = 4 * slots + 4
        self.address = address
        self._finished: Any = as_completed(loop=client.loop, with_results=True, raise_errors=False)  # type: ignore[no-untyped-call]
        self._ready: dict[str, Any] = {}  # results fetched, by task key, not yet handed out

    def submit(self, fn: Callable[..., R], *args: Any) -> Any:
        future = self.client.submit(fn, *args, pure=False)
        self._finished.add(future)
        return future

    def _next_finished(self) -> Any:
        future, result = next(self._finished)
        self._ready[future.key] = result
        return future

    def first_done(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        while True:
            done = {f for f in pending if f.key in self._ready}
            if done:
                return done, pending - done
            self._next_finished()

    def result(self, future: Any) -> Any:
        while future.key not in self._ready:
            self._next_finished()
        result = self._ready.pop(future.key)
        if future.status == "error":
            try:
                future.result()
            except Exception as exc:
                # A worker without ratscrew, a worker that died, a scheduler that went away: one line.
                raise ClusterError(
                    f"the Dask cluster at {self.address} failed a task ({type(exc).__name__}: {exc}): "
                    f"expected workers that run the same ratscrew ({INSTALL_HINT})"
                ) from None
        return result

    def drop(self, futures: Iterable[Any]) -> None:
        self.client.cancel(list(futures))

    def close(self) -> None:
        """Cancel every task not yet handed out and wait (briefly) until the background fetches are over."""
        left = list(self._finished.futures)
        client_log = logging.getLogger("distributed.client")
        level = client_log.level
        client_log.setLevel(logging.ERROR)  # a fetch overtaken by its cancelling is worth no warning
        try:
            if left:
                self.client.cancel(left)
            for _ in self._finished:
                pass
        except Exception:  # the cluster is going or gone: the client's close says nothing more of it
            pass
        finally:
            client_log.setLevel(level)
        self._ready.clear()


@contextmanager
def open_runner(workers: int = 1, scheduler: str | None = None, *, tasks: int | None = None) -> Iterator[Runner]:
    """This process (``workers`` 1), a pool of ``workers`` local processes, or the Dask cluster at ``scheduler``.

    ``tasks``, when known, caps the local pool: no more processes than there are tasks.
    """
    if scheduler is not None:
        with _dask_runner(scheduler) as runner:
            yield runner
        return
    processes = workers if tasks is None else min(workers, tasks)
    if processes <= 1:
        yield Runner()
        return
    pool = ProcessPoolExecutor(max_workers=processes, initializer=_quiet_worker)
    try:
        yield _PoolRunner(pool, processes)
    except BaseException:
        _stop_now(pool)
        raise
    pool.shutdown(wait=True)


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """A run stopped (Ctrl-C) or failed: the tasks still running are wanted by nobody, and waiting for them,
    as leaving a ``with`` block of the pool does, can take minutes (a hunt's batch on a busy machine)."""
    running = list((pool._processes or {}).values())  # the pool has no public way to stop a running task
    pool.shutdown(wait=False, cancel_futures=True)  # (which also forgets its processes)
    for process in running:
        process.terminate()


def check_address(address: str) -> str:
    """``address`` as Dask reads it (``HOST:PORT`` means ``tcp://HOST:PORT``), or a ClusterError."""
    try:
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask distributed, which is not installed: {INSTALL_HINT}") from None
    expected = f"expected a Dask scheduler address such as {EXAMPLE_ADDRESS}"
    try:
        scheme, location = parse_address(address.strip(), strict=False)
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"--scheduler {address!r} is not an address ({exc}): {expected}") from None
    if scheme not in SCHEMES:
        # Dask knows more (ws://, wss://, ucx://, inproc://), but none that the checks below can read before
        # Dask's client, which hangs or ends in a traceback on whatever else answers there.
        raise ClusterError(
            f"--scheduler {address!r}: ratscrew reaches a Dask scheduler over tcp:// (or tls://), not {scheme}://: "
            f"{expected}"
        )
    if not host or not port:
        raise ClusterError(f"--scheduler {address!r} has no host or no port: {expected}")
    return f"{scheme}://{location}"


def _security(full: str) -> Any:
    """Dask's security settings for a client (its configuration, or its DASK_DISTRIBUTED__COMM__... variables),
    or a ClusterError when they cannot reach ``full``: a tls:// address with no certificate configured (Dask's
    client would end in a TypeError), or a tcp:// one where the configuration requires encryption."""
    from distributed.security import Security

    try:
        security = Security()  # type: ignore[no-untyped-call]
        context = security.get_connection_args("client")["ssl_context"]  # type: ignore[no-untyped-call]
    except (OSError, ValueError) as exc:  # a file named there that is missing, or not a certificate
        raise ClusterError(f"Dask's TLS settings cannot be used ({exc}): expected {TLS_SETTINGS}") from None
    if full.startswith("tls://") and context is None:
        raise ClusterError(f"--scheduler {full} needs TLS, and Dask's configuration has none: expected {TLS_SETTINGS}")
    if not full.startswith("tls://") and security.require_encryption:
        raise ClusterError(
            f"Dask's configuration requires encryption (distributed.comm.require-encryption): expected a tls:// "
            f"address, not {full}"
        )
    return security


def _greeting(full: str, context: ssl.SSLContext | None) -> None:
    """Make sure a Dask scheduler is what answers at ``full``, before Dask's client is let near it.

    A scheduler greets every connection at once with a handshake (over TLS at a tls:// address, once TLS's own
    handshake is done): an 8-byte length, a count of frames and their lengths, then a msgpack map of its Python
    version and pickle protocol. The client waits on that greeting without a time limit, so anything else
    listening there (a server that says nothing, an HTTP server waiting for a request, one that sends bytes of
    its own) would hang it or end in a traceback; here each is one ClusterError within CONNECT_SECONDS.
    """
    from distributed.comm.addressing import parse_host_port

    host, port = parse_host_port(full.partition("://")[2])
    deadline = time.monotonic() + CONNECT_SECONDS
    expected = (
        f"expected a Dask scheduler there (start one with `dask scheduler`, and workers with `dask worker {full}`)"
    )
    try:
        conn = socket.create_connection((host, port), timeout=CONNECT_SECONDS)
    except TimeoutError:  # no answer at all to the connection, where a closed port refuses at once
        raise ClusterError(
            f"{full} is unreachable: nothing answered the connection within {CONNECT_SECONDS:g} s (is the host up, "
            f"and the address and port right?): {expected}"
        ) from None
    except OSError as exc:
        raise _none_there(full, exc) from None
    try:
        with conn:
            if context is None:
                _read_greeting(conn, deadline)
            else:
                with context.wrap_socket(conn, server_hostname=host if context.check_hostname else None) as tls:
                    _read_greeting(tls, deadline)
    except TimeoutError:
        raise ClusterError(
            f"the server at {full} sent nothing a Dask scheduler sends within {CONNECT_SECONDS:g} s: {expected}"
        ) from None
    except (ValueError, struct.error):
        raise ClusterError(f"the server at {full} answered, but not as a Dask scheduler does: {expected}") from None
    except ssl.SSLError as exc:
        raise ClusterError(
            f"the server at {full} did not take a TLS connection with Dask's TLS settings ({exc.reason or exc}): "
            f"{expected}, with TLS and a certificate that the configured ca-file vouches for"
        ) from None
    except OSError as exc:
        raise _none_there(full, exc) from None


def _none_there(full: str, exc: OSError) -> ClusterError:
    return ClusterError(
        f"no Dask scheduler answered at {full} within {CONNECT_SECONDS:g} s ({exc.strerror or exc}): "
        f"expected one running there (start it with `dask scheduler`, and workers with `dask worker {full}`)"
    )


def _read_greeting(conn: socket.socket, deadline: float) -> None:
    """Read a scheduler's greeting from ``conn``: ValueError (or struct.error) if what came is not one."""
    head = _read(conn, 16, deadline)
    total, frames = struct.unpack("<QQ", head)
    if not 1 <= frames <= 16 or not 16 + 8 * frames <= total + 8 <= 1 << 20:
        raise ValueError(head)
    rest = _read(conn, total - 8, deadline)
    sizes = struct.unpack(f"<{frames}Q", rest[: 8 * frames])
    greeting = _msgpack_map(rest[8 * frames : 8 * frames + sizes[0]])
    if sum(sizes) != len(rest) - 8 * frames or not {"python", "pickle-protocol"} & set(greeting):
        raise ValueError(head)


def _read(conn: socket.socket, count: int, deadline: float) -> bytes:
    """Exactly ``count`` bytes, or TimeoutError once ``deadline`` passes, or ValueError if the server hangs up."""
    data = b""
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        conn.settimeout(left)
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise ValueError("closed")
        data += chunk
    return data


def _msgpack_map(frame: bytes) -> dict[str, object]:
    import msgpack  # type: ignore[import-untyped]

    try:
        doc = msgpack.unpackb(frame, raw=False)
    except Exception:  # msgpack raises several kinds of error on bytes that are not msgpack
        raise ValueError("not msgpack") from None
    if not isinstance(doc, dict):
        raise ValueError("not a map")
    return {str(k): v for k, v in doc.items()}


@contextmanager
def _dask_runner(address: str) -> Iterator[Runner]:
    full = check_address(address)
    security = _security(full)
    _greeting(full, security.get_connection_args("client")["ssl_context"])
    from distributed import Client

    try:
        client = Client(full, timeout=CONNECT_SECONDS, set_as_default=False, security=security)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        why = "" if "timed out" in str(exc).lower() else f" ({exc})"
        raise ClusterError(
            f"no Dask scheduler answered at {full} within {CONNECT_SECONDS:g} s{why}: expected one running there "
            f"(start it with `dask scheduler`, and workers with `dask worker {full}`)"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
        except (OSError, TimeoutError):
            raise ClusterError(
                f"the Dask scheduler at {full} has had no worker for {WORKER_WAIT_SECONDS:g} s: "
                f"expected at least one (start it with `dask worker {full}`)"
            ) from None
        slots = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
        runner = _DaskRunner(client, slots, full)
        try:
            yield runner
        finally:
            runner.close()
    finally:
        client.close()  # type: ignore[no-untyped-call]
