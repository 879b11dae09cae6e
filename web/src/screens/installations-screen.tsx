/**
 * Installations (admins): the code host's installations it has reported to the service, and Connect, which accepts
 * an installation's repositories in this organization (spec 4.6, "connected in the dashboard"). The list holds this
 * organization's installations and those connected nowhere yet; moving one from another organization is the
 * operator's (`qa installations connect`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { installationConnectedSchema } from '../../../src/api/schemas/people.js';
import { api } from '../api/client.js';
import { installationListSchema } from '../../../src/api/schemas/people.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime } from '../format.js';
import { useSession } from '../session.js';

const INSTALLATIONS_KEY = ['installations'] as const;

function ConnectButton({ installationId, account }: { installationId: string; account: string | null }) {
  const queryClient = useQueryClient();
  const connect = useMutation({
    mutationFn: () => api(installationConnectedSchema, `/api/installations/${encodeURIComponent(installationId)}/connect`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INSTALLATIONS_KEY }),
  });
  return (
    <>
      <button type="button" className="primary" disabled={connect.isPending} onClick={() => connect.mutate()} aria-label={`Connect installation ${installationId}${account ? ` (${account})` : ''}`}>
        {connect.isPending ? 'Connecting…' : 'Connect'}
      </button>
      {connect.isError ? <ErrorNotice error={connect.error} /> : null}
    </>
  );
}

export default function InstallationsScreen() {
  const session = useSession();
  const installations = useQuery({
    queryKey: INSTALLATIONS_KEY,
    queryFn: ({ signal }) => api(installationListSchema, '/api/installations', { signal }),
  });
  return (
    <>
      <h1>Installations</h1>
      <p className="muted">
        When the code host's app is installed on an account, the code host reports it here. Connect it to let {session.organization.name} connect that account's repositories.
      </p>
      {installations.isPending ? <p className="muted">Loading…</p> : null}
      {installations.isError ? <ErrorNotice error={installations.error} retry={() => void installations.refetch()} /> : null}
      {installations.data?.installations.length === 0 ? <p>The code host has reported no installation yet.</p> : null}
      {installations.data && installations.data.installations.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col" className="optional">
                  Installation
                </th>
                <th scope="col" className="optional">
                  Reported
                </th>
                <th scope="col">Connection</th>
              </tr>
            </thead>
            <tbody>
              {installations.data.installations.map((installation) => {
                const mine = installation.connectedOrganizationId === session.organization.id;
                return (
                  <tr key={installation.installationId} data-testid="installation">
                    <td className="break">
                      {installation.account ?? <span className="muted">not reported yet</span>}
                      {installation.accountType ? <div className="muted">{installation.accountType}</div> : null}
                    </td>
                    <td className="optional">{installation.installationId}</td>
                    <td className="optional">{formatTime(installation.reportedAt)}</td>
                    <td>
                      {mine ? (
                        <span>
                          <span className="status passed">connected</span>
                          {installation.connectedBy ? <span className="muted"> by {installation.connectedBy}</span> : null}
                        </span>
                      ) : installation.status !== 'active' ? (
                        <span className="muted">{installation.status ?? 'not reported'}: the code host must report it active before it can be connected</span>
                      ) : (
                        <ConnectButton installationId={installation.installationId} account={installation.account} />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
