"""``ratscrew serve``: the game for the public, as room workers behind a reverse proxy (docs/hosting.md)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ratscrew.cli.app import main
from ratscrew.errors import BadRequest

if TYPE_CHECKING:
    from ratscrew.hosting.settings import Hosting


def parse_ports(text: str) -> tuple[int, ...]:
    try:
        ports = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise BadRequest(f"--ports: {text[:40]!r} is not a list of port numbers such as 8001,8002") from None
    if not all(0 < p < 65536 for p in ports) or len(set(ports)) != len(ports):
        raise BadRequest("--ports: each port must be a different number from 1 to 65535")
    return ports


# What the hosting extra installs: without them a worker would fail at start, again and again, with a traceback.
HOSTING_MODULES = ("redis", "prometheus_client")


@main.command()
@click.option("--workers", type=click.IntRange(1, 256), default=None, help="Room workers (default: one per core).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address the workers listen on (the proxy's).")
@click.option("--port", type=click.IntRange(1, 65535), default=8001, show_default=True, help="First worker's port.")
@click.option("--ports", default=None, help="Every worker's port, e.g. 8001,8002 (instead of --workers and --port).")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the SQLite store the workers share (default: ~/.local/share/ratscrew).",
)
@click.option(
    "--redis", "redis_url", default=None, help="Redis for what the workers share, e.g. redis://127.0.0.1:6379/0."
)
@click.option(
    "--trusted-proxy",
    "trusted",
    multiple=True,
    help="Address whose X-Forwarded-For is believed (repeatable; default: 127.0.0.1 and ::1).",
)
@click.option(
    "--origin", "origins", multiple=True, help="Another page address allowed to open websockets (repeatable)."
)
@click.option("--rooms-per-hour", type=click.IntRange(1, 100_000), default=60, show_default=True, help="Per address.")
@click.option(
    "--routing",
    type=click.Choice(["hash", "letters"]),
    default="hash",
    show_default=True,
    help="How the proxy finds a room's worker: nginx's consistent hash, or the code's first letter.",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="warning",
    show_default=True,
    help="JSON log lines from this level (info: a line for every refused input, every socket refused).",
)
@click.option("--print-nginx-config", "print_nginx", is_flag=True, help="Print the nginx site for these workers.")
@click.option(
    "--print-haproxy-config", "print_haproxy", is_flag=True, help="Print HAProxy's sections (with --routing letters)."
)
@click.option("--print-caddy-config", "print_caddy", is_flag=True, help="Print a Caddyfile (with --routing letters).")
@click.option(
    "--print-systemd-unit",
    "print_unit",
    is_flag=True,
    help="Print a systemd service that runs `ratscrew serve` with these options (give --data).",
)
@click.option(
    "--run-as",
    default=None,
    help="With --print-systemd-unit: the user the service runs as (default: ratscrew).",
)
@click.option(
    "--listen",
    default="80",
    show_default=True,
    help="With --print-*-config: the port (or nginx's listen, HAProxy's bind).",
)
@click.option(
    "--server-name", default="_", show_default=True, help="With --print-*-config: the site's name (Caddy: its domain)."
)
def serve(
    workers: int | None,
    host: str,
    port: int,
    ports: str | None,
    data_dir: Path | None,
    redis_url: str | None,
    trusted: tuple[str, ...],
    origins: tuple[str, ...],
    rooms_per_hour: int,
    routing: str,
    log_level: str,
    print_nginx: bool,
    print_haproxy: bool,
    print_caddy: bool,
    print_unit: bool,
    run_as: str | None,
    listen: str,
    server_name: str,
) -> None:
    """Serve the game to the public: room workers behind a reverse proxy (see docs/hosting.md)."""
    from ratscrew.hosting.settings import Hosting
    from ratscrew.web.serve import default_data_dir

    if ports is not None and workers is not None:
        raise BadRequest("give --workers (with --port) or --ports, not both")
    chosen = parse_ports(ports) if ports else tuple(range(port, port + (workers or os.cpu_count() or 1)))
    if max(chosen) > 65535:
        raise BadRequest(f"--port {port} with {len(chosen)} workers goes past port 65535")
    asked = (("nginx", print_nginx), ("haproxy", print_haproxy), ("caddy", print_caddy), ("systemd", print_unit))
    printing = [name for name, wanted in asked if wanted]
    if len(printing) > 1:
        raise BadRequest(
            "give one of --print-nginx-config, --print-haproxy-config, --print-caddy-config and --print-systemd-unit"
        )
    if run_as is not None and not print_unit:
        raise BadRequest("--run-as goes with --print-systemd-unit: the user the service runs as")
    if print_unit and data_dir is None:
        raise BadRequest(
            "--print-systemd-unit needs --data: the folder the service keeps its store in (e.g. /srv/ratscrew/data)"
        )
    proxy = next((name for name in printing if name != "systemd"), None)
    if len(chosen) > 1 and not redis_url and proxy is None:
        raise BadRequest(
            f"{len(chosen)} workers share their limits and open lobbies through Redis: give --redis URL "
            "(e.g. redis://127.0.0.1:6379/0), or --workers 1"
        )
    hosting = Hosting(
        ports=chosen,
        data_dir=data_dir or default_data_dir(),
        host=host,
        redis_url=redis_url,
        trusted_proxies=trusted or ("127.0.0.1", "::1"),
        origins=origins,
        rooms_per_hour=rooms_per_hour,
        routing=routing,
        log_level=log_level,
    )
    if print_unit:
        from ratscrew.hosting import systemd

        click.echo(systemd.render(hosting, user=run_as or "ratscrew"), nl=False)
        return
    if proxy is not None:
        click.echo(proxy_config(proxy, hosting, listen, server_name), nl=False)
        return
    missing = [name for name in HOSTING_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise BadRequest(
            f"ratscrew serve needs the hosting extra ({', '.join(missing)} missing): pip install 'ratscrew[hosting]'"
        )
    from ratscrew.hosting.supervisor import Supervisor

    Supervisor(hosting).run()


def proxy_config(proxy: str, hosting: Hosting, listen: str, server_name: str) -> str:
    """The configuration of ``proxy`` for these workers; ``listen`` alone is a port."""
    port_only = listen.isdigit()
    if proxy == "nginx":
        from ratscrew.hosting import nginx

        return nginx.render(hosting, listen=listen, server_name=server_name)
    if proxy == "haproxy":
        from ratscrew.hosting import haproxy

        return haproxy.render(hosting, bind=f":{listen}" if port_only else listen)
    from ratscrew.hosting import caddy

    if server_name != "_":  # a domain: Caddy gets its certificate, and listens on 443 (and 80 to redirect)
        return caddy.render(hosting, address=server_name)
    return caddy.render(hosting, address=f"http://:{listen}" if port_only else f"http://{listen}")
