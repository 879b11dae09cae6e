/** A version's steps as a readable table: action, the element (its locator), the value. Every field is React text. */
import type { StepChange } from './step-diff.js';
import { stepView } from './step-view.js';

const CHANGE_TEXT: Record<StepChange, string> = {
  locator: 'locator changed',
  toLocator: 'drop target changed',
  action: 'action changed',
  value: 'value changed',
};

export function StepsTable({
  steps,
  caption,
  changes,
  testId,
}: {
  steps: Record<string, unknown>[];
  caption: string;
  /** Per step index, what a proposal changed there: those rows are highlighted and say so in words. */
  changes?: Map<number, StepChange[]>;
  testId?: string;
}) {
  return (
    <div className="table-wrap">
      <table className="steps" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((compiled, index) => {
            const view = stepView(compiled);
            const changed = changes?.get(index) ?? [];
            const locatorChanged = changed.includes('locator') || changed.includes('toLocator');
            return (
              <tr key={index} className={changed.length > 0 ? 'changed' : undefined} data-changed={changed.length > 0 ? changed.join(' ') : undefined}>
                <td>{index + 1}</td>
                <td>
                  <strong>{view.action}</strong>
                  {view.description ? <div className="muted">{view.description}</div> : null}
                  {changed.length > 0 ? <div className="change-note">{changed.map((change) => CHANGE_TEXT[change]).join(', ')}</div> : null}
                </td>
                <td data-label="Target">
                  {view.target ? <code className={locatorChanged ? 'locator changed-locator' : 'locator'}>{view.target}</code> : null}
                  {view.to ? (
                    <div>
                      to <code className="locator">{view.to}</code>
                    </div>
                  ) : null}
                </td>
                <td className="step-value" data-label="Value">
                  {view.value}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
