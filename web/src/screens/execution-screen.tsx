/** Placeholder until the screen is built (issue 27). */
export default function ExecutionScreen() {
  return <h1>ExecutionScreen</h1>;
}
