/** Placeholder until the screen is built (issue 27). */
export default function KeysScreen() {
  return <h1>KeysScreen</h1>;
}
