/**
 * Screens loaded on demand, without React.lazy: a lazy component suspends on its first render even when its chunk is
 * already there, and React throttles the reveal of a Suspense fallback (about 300 ms), which a first load of the
 * dashboard paid every time. Here a screen's chunk starts loading as the page starts (`preloadScreen`, beside the
 * session request), and a screen whose module is loaded renders at once.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { ErrorNotice } from './components/error-notice.js';

type ScreenModule = { default: ComponentType };

export interface ScreenLoader {
  load(): Promise<ScreenModule>;
  /** The module, once loaded. */
  loaded(): ScreenModule | undefined;
}

export function screenLoader(importer: () => Promise<ScreenModule>): ScreenLoader {
  let module: ScreenModule | undefined;
  let pending: Promise<ScreenModule> | undefined;
  return {
    load() {
      pending ??= importer().then(
        (loaded) => (module = loaded),
        (error: unknown) => {
          pending = undefined; // a later visit tries again
          throw error;
        },
      );
      return pending;
    },
    loaded: () => module,
  };
}

/** Renders the loader's screen; give it a `key` per screen, so that another screen starts with its own state. */
export function LoadedScreen({ loader }: { loader: ScreenLoader }) {
  const [module, setModule] = useState(loader.loaded);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    if (module) return;
    let current = true;
    loader.load().then(
      (loaded) => current && setModule(loaded),
      (failure: unknown) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, [loader, module]);
  if (error !== undefined) {
    // Most often a new release replaced the chunk this page knew of.
    return <ErrorNotice error={new Error('This screen could not be loaded; reload the page to get the current version.')} retry={() => window.location.reload()} />;
  }
  if (!module) return <p className="muted">Loading…</p>;
  const Screen = module.default;
  return <Screen />;
}
