/** Placeholder until the screen is built (issue 27). */
export default function ChecksScreen() {
  return <h1>ChecksScreen</h1>;
}
