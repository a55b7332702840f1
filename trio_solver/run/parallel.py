"""Run many independent tasks on one machine's processes or on a Ray cluster.

One function, :func:`run_tasks`, serves every "many games" job (tournaments,
the analysis of a directory of records): it takes a picklable function and a
stream of picklable tasks, keeps only a bounded window of tasks in flight (so
memory does not depend on how many tasks the stream holds, which may be
endless), and calls back once per finished task, on the calling thread.

Backends:

* ``local`` (the default) — ``workers == 1`` runs the tasks in this process;
  more workers use a process pool. A pool whose worker dies is rebuilt and the
  tasks it was running are submitted again (at most ``max_retries`` times each).
* ``ray`` — Ray tasks (``pip install 'trio-solver[ray]'``; Ray is imported only
  here, only when asked for). ``ray_address=None`` starts a private local Ray
  instance (with ``workers`` CPUs, at most the CPUs available) and stops it at the
  end; ``"auto"`` or ``"host:port"`` joins a running cluster and uses all its CPUs
  (or ``workers`` tasks at a time, if given). If Ray is already initialised in
  this process, that instance is used as it is. A task whose worker process dies
  is run again by Ray (``max_retries``); a task that raises is not retried.

A task function's result must depend only on its task (give it its own seeded
generator), so that every backend and every number of workers produce the same
results; only their order of arrival differs (unless ``ordered=True``).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .._args import int_in, show
from ..errors import RunError, TrioError

__all__ = ["BACKENDS", "RunInfo", "available_cpus", "run_tasks"]

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")

#: Tasks kept in flight per worker: enough to keep every worker busy, few enough to bound memory.
WINDOW_PER_WORKER = 2


@dataclass(frozen=True)
class RunInfo:
    """How a call of :func:`run_tasks` ran.

    ``workers`` is the number of tasks run at a time; ``retried`` counts the tasks
    submitted again after their worker died (``None`` on Ray, which retries them
    itself without telling).
    """

    backend: str
    workers: int
    tasks: int
    retried: int | None


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_tasks(fn: Callable[[T], R], tasks: Iterable[T], on_result: Callable[[R], None], *,
              backend: str = "local", workers: int | None = None, ray_address: str | None = None,
              ordered: bool = False, window: int | None = None, max_retries: int = 3,
              total: int | None = None, on_note: Callable[[str], None] | None = None) -> RunInfo:
    """Run ``fn(task)`` for every task of ``tasks`` and call ``on_result`` with each result.

    ``fn`` must be a module-level function and the tasks and results picklable
    (they cross process boundaries). ``tasks`` is consumed lazily: at most
    ``window`` tasks (default: two per worker) are taken from it before their
    results have been handed to ``on_result``. ``on_result`` runs in the calling
    thread, one result at a time: in the order of ``tasks`` if ``ordered``, else
    as the tasks finish.

    ``workers`` is capped at the CPUs available (for the local pool and a local
    Ray instance) and at ``total`` (the number of tasks, when the caller knows
    it); ``on_note`` is told, in one line, when a requested number was capped.
    ``backend``, ``ray_address`` and ``max_retries`` are described in the module
    docstring.

    An exception raised by ``fn`` (on any backend) or by ``on_result`` stops the
    run: local worker processes are stopped, the Ray instance started (or the
    connection opened) here is shut down, which ends its tasks (on a Ray instance
    the caller initialised, the at most ``window`` tasks in flight run to their
    end), and the exception is raised again here (a
    :class:`~trio_solver.errors.TrioError` as it was raised; any other failure of
    a remote task as :class:`~trio_solver.errors.RunError`). So is
    ``KeyboardInterrupt``. Returns a :class:`RunInfo`.
    """
    if backend not in BACKENDS:
        raise RunError(f"backend: expected one of {', '.join(BACKENDS)}, got {show(backend)}")
    if workers is not None:
        int_in("workers", workers, 1, 10**6, RunError, "a number of workers")
    if window is not None:
        int_in("window", window, 1, 10**9, RunError)
    int_in("max_retries", max_retries, 0, 1000, RunError)
    if backend == "local" and ray_address is not None:
        raise RunError("a Ray address is for the ray backend (backend='ray')")
    note = on_note if on_note is not None else (lambda _text: None)
    emit = _Emitter(on_result, ordered)
    if backend == "local":
        n = _cap_local(workers, total, note)
        if n == 1:
            count = 0
            for task in tasks:
                on_result(fn(task))
                count += 1
            return RunInfo("local", 1, count, 0)
        return _run_pool(fn, iter(tasks), emit, n, window or WINDOW_PER_WORKER * n, max_retries)
    return _run_ray(fn, iter(tasks), emit, workers, ray_address, window, max_retries, total, note)


def _cap_local(workers: int | None, total: int | None, note: Callable[[str], None]) -> int:
    want = 1 if workers is None else workers
    cpus = available_cpus()
    n = min(want, cpus)
    if n < want:
        note(f"--workers {want} capped at {n}, the CPUs available")
    if total is not None and 0 < total < n:
        note(f"--workers {n} capped at {total}, the number of games to play")
        n = total
    return n


class _Emitter(Generic[R]):
    """Hands results to the callback, in task order if asked (holding early ones back)."""

    def __init__(self, on_result: Callable[[R], None], ordered: bool) -> None:
        self.on_result = on_result
        self.ordered = ordered
        self.held: dict[int, R] = {}
        self.next = 0
        self.count = 0

    def put(self, seq: int, result: R) -> None:
        self.count += 1
        if not self.ordered:
            self.on_result(result)
            return
        self.held[seq] = result
        while self.next in self.held:
            self.on_result(self.held.pop(self.next))
            self.next += 1


def _init_worker() -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what to do about it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker must not outlive its parent (killed with SIGKILL, say): ask Linux to end it then.
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel queued tasks and end its processes (not wait for their games)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        try:
            p.terminate()
        except (OSError, ValueError, AttributeError):
            pass
    for p in processes:
        try:
            p.join(timeout=5)
        except (OSError, ValueError, AttributeError, AssertionError):
            pass


class _SafePoints:
    """Ctrl-C and SIGTERM held back while the pool runs, and acted on at the loop's safe points.

    A ``KeyboardInterrupt`` raised inside the executor's own code (``submit`` holds a lock its
    manager thread needs) can leave that thread waiting for ever, and the process with it at exit.
    So the Python handlers of those signals are wrapped (in the main thread only): a signal is noted,
    and :meth:`check` calls the original handler where the pool can be stopped cleanly.
    """

    def __init__(self) -> None:
        self.pending: list[tuple[int, Any]] = []
        self.saved: dict[int, Any] = {}

    def __enter__(self) -> _SafePoints:
        if threading.current_thread() is not threading.main_thread():
            return self
        for sig in _SIGNALS:
            handler = signal.getsignal(sig)
            if callable(handler):
                self.saved[sig] = handler
                signal.signal(sig, self._note)
        return self

    def _note(self, sig: int, frame: Any) -> None:
        self.pending.append((sig, frame))

    def check(self) -> None:
        """Act on a signal noted since the last check (the original handler raises, as a rule)."""
        if self.pending:
            sig, frame = self.pending[0]
            self.pending.clear()
            self.saved[sig](sig, frame)

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
        self.saved.clear()


#: Seconds between two looks at a held-back Ctrl-C while the pool runs.
SAFE_POINT_SECONDS = 0.1


def _run_pool(fn: Callable[[T], R], tasks: Iterator[T], emit: _Emitter[R], workers: int, window: int,
              max_retries: int) -> RunInfo:
    with _SafePoints() as safe:
        return _run_pool_with(fn, tasks, emit, workers, window, max_retries, safe)


def _run_pool_with(fn: Callable[[T], R], tasks: Iterator[T], emit: _Emitter[R], workers: int, window: int,
                   max_retries: int, safe: _SafePoints) -> RunInfo:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker)
    inflight: dict[Future[R], tuple[int, T, int]] = {}
    seq = 0
    retried = 0
    exhausted = False
    try:
        while True:
            while not exhausted and len(inflight) + len(emit.held) < window:
                try:
                    task = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                inflight[pool.submit(fn, task)] = (seq, task, 0)
                seq += 1
            if not inflight:
                break
            done, _ = wait(list(inflight), timeout=SAFE_POINT_SECONDS, return_when=FIRST_COMPLETED)
            safe.check()
            lost: list[tuple[int, T, int]] = []
            for f in done:
                s, task, attempts = inflight.pop(f)
                try:
                    result = f.result()
                except BrokenProcessPool:
                    lost.append((s, task, attempts))
                    continue
                emit.put(s, result)
            if lost:
                # A worker died: the pool is unusable and every task it held is lost with it.
                for f in list(inflight):
                    s, task, attempts = inflight.pop(f)
                    if f.done() and not f.cancelled() and f.exception() is None:
                        emit.put(s, f.result())
                    else:
                        lost.append((s, task, attempts))
                _stop_pool(pool)
                pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker)
                for s, task, attempts in sorted(lost, key=lambda t: t[0]):
                    if attempts >= max_retries:
                        raise RunError(f"task {s}: a worker process died while running it, "
                                       f"{attempts + 1} times (max_retries={max_retries})")
                    inflight[pool.submit(fn, task)] = (s, task, attempts + 1)
                    retried += 1
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)
    return RunInfo("local", workers, emit.count, retried)


# -- Ray ------------------------------------------------------------------------------


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RunError("the ray backend needs Ray, which is not installed: "
                       "pip install 'trio-solver[ray]'") from None
    return ray


_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _signal_handlers() -> dict[int, Any]:
    return {sig: signal.getsignal(sig) for sig in _SIGNALS}


def _restore_signal_handlers(handlers: dict[int, Any]) -> None:
    """Undo the handlers ``ray.init`` installs (its SIGTERM handler dumps a stack and kills the process),
    so that the caller's Ctrl-C and SIGTERM handling stops the run cleanly."""
    for sig, handler in handlers.items():
        if handler is None:
            continue  # not set from Python: nothing to put back
        try:
            signal.signal(sig, handler)
        except (ValueError, OSError):  # not the main thread
            pass


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:400]


#: Seconds allowed to open a connection to a cluster's address before Ray is asked to join it.
CONNECT_TIMEOUT = 10.0


def _host_port(target: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` (``[v6]:PORT`` too), or ``None`` when ``target`` is not of that form."""
    host, _, port = target.rpartition(":")
    if not host or not (port.isascii() and port.isdigit()) or len(port) > 5:
        return None
    return host.strip("[]"), int(port)


def ray_address(address: str) -> str:
    """``address`` when it is ``auto`` or ``HOST:PORT`` (after an optional scheme such as ``ray://``);
    else :class:`RunError` naming ``ray_address`` (what ``--ray-address`` accepts too: whether a cluster answers there is checked
    when the run starts)."""
    if address != "auto" and _host_port(address.split("://", 1)[-1]) is None:
        raise RunError(f'ray_address: expected "auto" or HOST:PORT, got {show(address)}')
    return address


def _probe(address: str) -> None:
    """Fail fast (:class:`RunError`) if a cluster's address does not answer; Ray itself would wait for minutes.

    ``auto`` means ``RAY_ADDRESS`` or the cluster that ``ray start`` left on
    this machine (``/tmp/ray/ray_current_cluster``); when neither is there, Ray
    says so itself at once.
    """
    target = ray_address(address)  # auto, or HOST:PORT: anything else is refused here
    if address == "auto":
        target = os.environ.get("RAY_ADDRESS", "")
        if not target:
            try:
                with open(os.path.join(os.environ.get("RAY_TMPDIR", "/tmp/ray"), "ray_current_cluster")) as f:
                    target = f.read().strip()
            except OSError:
                return
    if "://" in target:
        target = target.split("://", 1)[1]
    where = _host_port(target)
    if where is None:  # auto, and what it names is no HOST:PORT: Ray says what it makes of it
        return
    try:
        with socket.create_connection(where, timeout=CONNECT_TIMEOUT):
            pass
    except OSError as e:
        raise RunError(f"cannot join the Ray cluster at {show(address)}: nothing answers at {target} "
                       f"({e.strerror or type(e).__name__})") from None


def _run_ray(fn: Callable[[T], R], tasks: Iterator[T], emit: _Emitter[R], workers: int | None,
             address: str | None, window: int | None, max_retries: int, total: int | None,
             note: Callable[[str], None]) -> RunInfo:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": logging.WARNING}
        if address is None:
            cpus = available_cpus()
            num_cpus = cpus if workers is None else min(workers, cpus)
            if workers is not None and num_cpus < workers:
                note(f"--workers {workers} capped at {num_cpus}, the CPUs available to a local Ray instance")
            options["num_cpus"] = num_cpus
            # "local": always a new private instance. Ray's default (no address) would join any
            # cluster it finds on this machine (RAY_ADDRESS, or one another user started).
            options["address"] = "local"
        else:
            _probe(address)
            options["address"] = address
        handlers = _signal_handlers()
        try:
            ray.init(**options)
        except Exception as e:  # noqa: BLE001 - Ray raises many kinds; the user needs one line
            where = "start a local Ray instance" if address is None else f"join the Ray cluster at {show(address)}"
            raise RunError(f"cannot {where}: {_one_line(e)}") from None
        finally:
            _restore_signal_handlers(handlers)
        started = True
    try:
        cluster_cpus = int(ray.cluster_resources().get("CPU", 1))
        parallel = max(1, cluster_cpus if workers is None or address is None else min(workers, cluster_cpus))
        if total is not None and 0 < total < parallel:
            parallel = total
        return _ray_loop(ray, fn, tasks, emit, parallel, window or WINDOW_PER_WORKER * parallel, max_retries)
    finally:
        if started:
            ray.shutdown()


def _ray_loop(ray: Any, fn: Callable[[T], R], tasks: Iterator[T], emit: _Emitter[R], parallel: int,
              window: int, max_retries: int) -> RunInfo:
    from ray.exceptions import RayError, RayTaskError

    remote = ray.remote(max_retries=max_retries, retry_exceptions=False)(fn)
    pending: dict[Any, int] = {}
    seq = 0
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) + len(emit.held) < window:
                try:
                    task = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                pending[remote.remote(task)] = seq
                seq += 1
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                s = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except RayTaskError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, TrioError):
                        raise cause from None
                    raise RunError(f"task {s} failed on Ray: {_one_line(cause or e)}") from None
                except RayError as e:
                    raise RunError(f"task {s} failed on Ray (after {max_retries} retries): {_one_line(e)}") from None
                emit.put(s, result)
    finally:
        # The tasks still in flight (at most a window of them) are not cancelled one by one:
        # ray.cancel racing a task's completion can crash Ray's core worker (a failed check in
        # task_manager.cc, Ray 2.60). ray.shutdown() ends them when the instance or the
        # connection is ours; on an instance the caller initialised they run to their end.
        pending.clear()
    return RunInfo("ray", parallel, emit.count, None)
