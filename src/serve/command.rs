//! The `serve` command: binds, says where, opens a browser if asked, and
//! serves until Ctrl-C.

use std::net::SocketAddr;

use miette::IntoDiagnostic;

use super::app::{router, App, WORKER_STACK};
use super::limits::Limits;
use crate::cli::ServeArgs;
use crate::exit::{Exit, Outcome};
use crate::Io;

/// The tokio runtime the playground runs on: its blocking threads, where
/// requests parse and explore, get large stacks ([`WORKER_STACK`]).
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(WORKER_STACK)
        .thread_name("relaxlab-serve")
        .build()
}

/// Is `host` a loopback address (or `localhost`)?
fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

pub fn serve(args: &ServeArgs, io: &mut Io<'_>) -> Outcome {
    let limits = Limits::from_args(args);
    let runtime = runtime().into_diagnostic()?;
    // The first Ctrl-C shuts the server down gracefully (below) instead of
    // ending the process; a second one still ends it at once.
    let _graceful = crate::interrupt::interruptible();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .map_err(|e| {
                miette::miette!(
                    help = "pick another port with --port, or --port 0 for any free one",
                    "cannot listen on {}:{}: {e}",
                    args.host,
                    args.port
                )
            })?;
        let addr: SocketAddr = listener.local_addr().into_diagnostic()?;
        if !is_loopback(&args.host) {
            writeln!(
                io.err,
                "warning: listening on {addr}, not on the loopback interface: any machine that \
                 reaches this one can run tests here (each within the limits of `relaxlab serve \
                 --help`)"
            )
            .into_diagnostic()?;
        }
        let shown = if addr.ip().is_unspecified() {
            format!("http://127.0.0.1:{}/", addr.port())
        } else {
            format!("http://{addr}/")
        };
        writeln!(io.out, "relaxlab playground: {shown}  (Ctrl-C stops it)").into_diagnostic()?;
        io.out.flush().into_diagnostic()?;
        if args.open {
            let url = shown.clone();
            // A browser that cannot be found or started is said, never
            // fatal: the address is printed above.
            std::thread::spawn(move || {
                if let Err(e) = opener::open_browser(&url) {
                    eprintln!("note: cannot open a browser ({e}); open {url} yourself");
                }
            });
        }
        let app = App::new(limits, &args.host, addr.port()).map_err(|e| miette::miette!("{e}"))?;
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .into_diagnostic()?;
        Ok::<_, miette::Report>(())
    })?;
    writeln!(io.err, "relaxlab playground stopped").into_diagnostic()?;
    Ok(Exit::Ok)
}
