/** A failed expectation side by side: what it expected, and what the page showed instead (nearest first). */
export function Comparison({ expected, actual }: { expected: string; actual: readonly string[] }) {
  return (
    <div className="comparison">
      <div className="expected">
        <h4>Expected</h4>
        <p className="job-text">{expected}</p>
      </div>
      <div className="actual">
        <h4>Actual{actual.length > 1 ? ' (nearest first)' : ''}</h4>
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
