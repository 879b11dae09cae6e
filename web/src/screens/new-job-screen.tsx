/** Placeholder until the screen is built (issue 27). */
export default function NewJobScreen() {
  return <h1>NewJobScreen</h1>;
}
