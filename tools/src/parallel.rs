//! Work spread over threads with the results kept in input order, so that a tool's output
//! does not depend on its thread count.

use crate::progress::Progress;

/// `f` of every item, on `threads` threads (item `i` on thread `i % threads`), in the order
/// of `items`; counts each item on `progress`.
pub fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    progress: &Progress,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1);
    let f = &f;
    let mut parts: Vec<std::vec::IntoIter<R>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    items
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|item| {
                            let r = f(item);
                            progress.inc(1);
                            r
                        })
                        .collect::<Vec<R>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker thread panicked").into_iter())
            .collect()
    });
    (0..items.len())
        .map(|i| parts[i % threads].next().expect("one result per item"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_for_any_thread_count() {
        let items: Vec<u64> = (0..23).collect();
        let progress = Progress::new(0, "test");
        for threads in [1, 2, 3, 8, 40] {
            let out = map_in_order(&items, threads, &progress, |x| x * x);
            assert_eq!(out, items.iter().map(|x| x * x).collect::<Vec<_>>());
        }
    }
}
