/** Placeholder until the screen is built (issue 27). */
export default function CheckScreen() {
  return <h1>CheckScreen</h1>;
}
