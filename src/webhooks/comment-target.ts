/**
 * Where a job a pull-request comment starts runs. For now the repository's own `baseUrl` and allowlist, whatever the
 * pull request: the one place to switch when preview targets (a per-repository template such as
 * `https://pr-{number}.preview.example.com`, or a `deployment_status` environment URL for the head) arrive.
 */
export interface TargetRepository {
  baseUrl: string;
  networkAllowlist: string[];
}

export interface TargetPull {
  number: number;
  headSha: string;
}

export interface CommentTarget {
  baseUrl: string;
  networkAllowlist: string[];
}

export function targetFor(repository: TargetRepository, _pull: TargetPull): CommentTarget {
  return { baseUrl: repository.baseUrl, networkAllowlist: repository.networkAllowlist };
}
