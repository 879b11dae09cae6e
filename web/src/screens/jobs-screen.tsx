/** Placeholder until the screen is built (issue 27). */
export default function JobsScreen() {
  return <h1>JobsScreen</h1>;
}
