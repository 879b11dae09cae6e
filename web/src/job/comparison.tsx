/** A failed expectation side by side: what it expected, and what the page showed instead (nearest first). */
export function Comparison({ expected, actual }: { expected: string; actual: readonly string[] }) {
  return (
    <div className="comparison" role="group" aria-label="Expected and actual">
      <div className="expected">
        <p className="comparison-label">Expected</p>
        <p className="job-text">{expected}</p>
      </div>
      <div className="actual">
        <p className="comparison-label">Actual{actual.length > 1 ? ' (nearest first)' : ''}</p>
        {actual.length === 0 ? (
          <p className="muted">Nothing like it on the page</p>
        ) : (
          <ol>
            {actual.map((line, index) => (
              <li key={index} className="job-text">
                {line}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
