/** Placeholder until the screen is built (issue 27). */
export default function JobScreen() {
  return <h1>JobScreen</h1>;
}
