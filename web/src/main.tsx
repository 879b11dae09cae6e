/** The dashboard (issue 27): a client of the service's own /api routes, signed in with the session cookie. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client.js';
import { Layout } from './layout.js';
import { preloadScreen, Routes } from './routes.js';
import { SessionGate } from './session.js';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A 4xx will not change by asking again; a lost connection will.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 3,
    },
  },
});

// The screen's chunk loads beside the session request, not after it.
preloadScreen(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SessionGate>
        <Layout>
          <Routes />
        </Layout>
      </SessionGate>
    </QueryClientProvider>
  </StrictMode>,
);
