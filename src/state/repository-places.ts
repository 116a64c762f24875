/**
 * What local state needs of a repository: where its shared git dir and its work tree are.
 * A structural type, so state/ stays below git/ (git/'s Repo is one) and never imports it.
 */
export interface RepositoryPlaces {
  readonly paths: { readonly commonDir: string };
  readonly workTree: string | null;
}
