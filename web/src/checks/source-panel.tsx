/** The generated Playwright source of a version, fetched as text and shown as text. */
import { useQuery } from '@tanstack/react-query';
import { apiText } from '../api/text.js';
import { ErrorNotice } from '../components/error-notice.js';

export function SourcePanel({ checkId, version }: { checkId: string; version: number }) {
  const source = useQuery({
    queryKey: ['checks', checkId, 'source', version],
    queryFn: ({ signal }) => apiText(`/api/checks/${encodeURIComponent(checkId)}/source?version=${version}`, signal),
    staleTime: Infinity,
  });
  if (source.isPending) return <p className="muted">Loading the source…</p>;
  if (source.isError) return <ErrorNotice error={source.error} retry={() => void source.refetch()} />;
  return (
    <pre className="source" data-testid="check-source" tabIndex={0} aria-label={`Playwright source of version ${version}`}>
      {source.data}
    </pre>
  );
}
