/** Placeholder until the screen is built (issue 27). */
export default function RepositoriesScreen() {
  return <h1>RepositoriesScreen</h1>;
}
