/**
 * Issue 28's side-effect sets, by class of a taxonomy of what a product can change, in both directions. Written
 * before the policy was changed for them (commit "side-effect sets of issue 28, before any change"), phrased the
 * ways example suites of real apps (Playwright, Cypress, Selenium, WebdriverIO) title and word their tests; never to
 * be reworded to suit the policy: a miss or a false hold is a fault of the policy, not of the task.
 *
 * What counts (the taxonomy decides, not convenience):
 * - A real side effect commits something to the product or the world beyond the run's own browser: a record made
 *   (create), changed (change), destroyed (delete), data brought in or taken out (transfer), a message or
 *   publication that reaches people (send), money (pay), who may do what (access), a commitment in time (schedule).
 * - Not one: what the run can take back by itself and nobody else sees (a cart or wish list, a filter, a sort, a
 *   search, a tab, a form filled in but not submitted, a dialog opened and closed, the checkout form opened but no
 *   order placed), where the run goes (navigation), what it reads, and signing in or out with given credentials.
 * - A list the user keeps (a todo list, even one in local storage) holds the user's data: deleting an entry deletes
 *   it. Ticking an entry done and back, or typing a new entry into one's own empty list in a fresh browser, is what
 *   the run can undo itself; it is listed here as not held.
 */

export type EffectClass = 'create' | 'change' | 'delete' | 'transfer' | 'send' | 'pay' | 'access' | 'schedule';

export interface EffectTask {
  task: string;
  class: EffectClass;
}

export interface NoEffectTask {
  task: string;
  /** Why it has no real side effect, in the taxonomy's words. */
  why: 'cart' | 'draft' | 'navigation' | 'view' | 'read' | 'sign-in' | 'dialog' | 'local';
}

/** Each must be asked about before it runs (a miss is a task that would run without asking). */
export const EFFECT_TASKS: readonly EffectTask[] = [
  // create
  { class: 'create', task: 'Create a new project called "Apollo" and check it shows up in the project list' },
  { class: 'create', task: 'Log in as admin@example.com / admin123, add a new customer named Jane Doe and verify she is listed' },
  { class: 'create', task: 'should create a new issue with the title "Login button broken"' },
  { class: 'create', task: 'Open the repositories page, click "New repository", name it demo-repo and click "Create repository"' },
  { class: 'create', task: 'Add a product "Blue Mug" priced at 12.50 to the catalog from the admin panel' },
  { class: 'create', task: 'Save a new shipping address for the demo user: 1 Main St, Springfield' },
  { class: 'create', task: 'Create an API key named "ci" and check that it is displayed once' },
  { class: 'create', task: 'Start a new board named Sprint 12 in the workspace' },
  // change
  { class: 'change', task: 'Edit the article "Hello world", change its title to "Hello there" and save it' },
  { class: 'change', task: 'Update the company name in the organization settings to ACME Ltd and click Save changes' },
  { class: 'change', task: 'Rename the project Apollo to Artemis' },
  { class: 'change', task: 'should update the price of the Desk Lamp to $39' },
  { class: 'change', task: 'Mark the invoice INV-7 as paid in the admin dashboard' },
  { class: 'change', task: 'Set the status of ticket #42 to Resolved' },
  { class: 'change', task: 'Change the default currency of the store to EUR and save' },
  { class: 'change', task: 'Go to the profile page, replace the bio with "QA bot" and click Update profile' },
  // delete
  { class: 'delete', task: 'Click Delete on the first row of the users table and confirm' },
  { class: 'delete', task: 'Archive the project Apollo' },
  { class: 'delete', task: "Add a todo 'walk the dog', then delete it with the × button and check the list is empty" },
  { class: 'delete', task: 'should remove a comment from the post' },
  { class: 'delete', task: 'Clear completed todos and check that only active ones are left' },
  { class: 'delete', task: 'Trash the email from alice@example.com' },
  { class: 'delete', task: 'Discard the saved report "Q3 revenue"' },
  // transfer in and out
  { class: 'transfer', task: 'Upload avatar.png as the profile picture and check the preview' },
  { class: 'transfer', task: 'Import contacts from contacts.csv and check that 20 contacts were added' },
  { class: 'transfer', task: 'Export all orders to CSV' },
  { class: 'transfer', task: 'Download the invoice PDF for order 1001' },
  { class: 'transfer', task: 'Attach the file report.pdf to the ticket and save' },
  { class: 'transfer', task: 'Sync the calendar with Google Calendar' },
  { class: 'transfer', task: 'Connect the Slack integration to the #alerts channel' },
  { class: 'transfer', task: 'Back up the workspace to Dropbox' },
  // send, publish, invite, share
  { class: 'send', task: 'Fill in the contact form with name Bob and message Hello, and submit the contact form' },
  { class: 'send', task: 'Invite bob@example.com to the team' },
  { class: 'send', task: 'Publish the draft "Release notes 2.0"' },
  { class: 'send', task: 'Share the dashboard with carol@example.com' },
  { class: 'send', task: 'Post a comment "Nice article!" under the first article' },
  { class: 'send', task: 'Forward the latest email to dave@example.com' },
  { class: 'send', task: 'Tweet the announcement from the marketing account' },
  { class: 'send', task: 'Click "Send invitation" after entering eve@example.com' },
  // pay, refund, order, subscribe
  { class: 'pay', task: 'Add the backpack to the cart, check out and place the order' },
  { class: 'pay', task: 'Pay the open invoice with the saved Visa card' },
  { class: 'pay', task: 'Refund order #1001' },
  { class: 'pay', task: 'Subscribe to the Pro plan with the test card 4242 4242 4242 4242' },
  { class: 'pay', task: 'Click "Complete purchase" on the review page' },
  { class: 'pay', task: 'Donate $5 to the project' },
  { class: 'pay', task: 'Top up the wallet with 20 EUR' },
  { class: 'pay', task: 'Renew the annual license for the team' },
  // grant or revoke access, roles
  { class: 'access', task: 'Invite bob@example.com as admin' },
  { class: 'access', task: 'Give carol@example.com editor access to the Marketing folder' },
  { class: 'access', task: 'Make dave an owner of the organization' },
  { class: 'access', task: 'Change the role of erin@example.com from Viewer to Admin' },
  { class: 'access', task: 'Revoke the personal access token named deploy' },
  { class: 'access', task: 'Remove frank from the project members' },
  { class: 'access', task: 'Grant the Support group permission to view billing' },
  { class: 'access', task: 'Promote the user grace to moderator' },
  // schedule or cancel a booking
  { class: 'schedule', task: 'Book a meeting room for tomorrow at 10am' },
  { class: 'schedule', task: 'Schedule the newsletter for Monday 9:00' },
  { class: 'schedule', task: 'Reschedule the appointment with Dr. Smith to Friday' },
  { class: 'schedule', task: 'Cancel the reservation for table 4 tonight' },
  { class: 'schedule', task: 'Create a recurring event "Standup" every weekday at 9' },
  { class: 'schedule', task: 'Set up a weekly report to be emailed every Friday' },
  { class: 'schedule', task: 'RSVP yes to the team offsite event' },
  { class: 'schedule', task: 'Reserve a seat on the 8:15 train to Boston' },

  // Round 2: written after the first change and measured before the second (5 of 24 missed, 0 of 24 held).
  { class: 'create', task: 'Add a new employee record for John Smith' },
  { class: 'create', task: 'Create a pull request from the feature branch' },
  { class: 'create', task: 'Duplicate the "Q3 plan" document' },
  { class: 'change', task: 'Edit the user profile and set the phone to 555-0100, then save' },
  { class: 'change', task: 'Update the stock level of SKU 123 to 0' },
  { class: 'change', task: 'Toggle the feature flag new-checkout on for all users' },
  { class: 'delete', task: 'Delete the selected rows' },
  { class: 'change', task: 'Close the GitHub issue #12 as not planned' },
  { class: 'delete', task: 'Permanently remove the uploaded file' },
  { class: 'transfer', task: 'Upload a CSV of 100 products via the bulk import page' },
  { class: 'transfer', task: 'Export the audit log as JSON' },
  { class: 'transfer', task: 'Download all attachments as a zip' },
  { class: 'send', task: 'Send a test notification to the team channel' },
  { class: 'send', task: 'Submit the job application form' },
  { class: 'send', task: 'Share the document publicly via link' },
  { class: 'pay', task: 'Checkout with PayPal and pay' },
  { class: 'pay', task: 'Buy 2 tickets for the Saturday show' },
  { class: 'pay', task: 'Apply for a refund of order 55' },
  { class: 'access', task: 'Add alice as a maintainer of the repo' },
  { class: 'access', task: 'Remove admin rights from bob' },
  { class: 'access', task: 'Transfer ownership of the workspace to carol' },
  { class: 'schedule', task: 'Book an appointment for Tuesday at 3pm' },
  { class: 'schedule', task: 'Cancel my dentist appointment' },
  { class: 'schedule', task: 'Schedule a post on LinkedIn for 9am tomorrow' },
];

/** None of these may be asked about (a hold here is a false hold). */
export const NO_EFFECT_TASKS: readonly NoEffectTask[] = [
  // cart and wish list: what a shopper can take back, no order placed
  { why: 'cart', task: 'Add the Sauce Labs Backpack to the cart and check that the badge shows 1' },
  { why: 'cart', task: 'Remove the backpack from the cart and check that the cart is empty' },
  { why: 'cart', task: 'Click Remove next to the bike light in the cart' },
  { why: 'cart', task: 'Press Remove on the Backpack on the products page and check the badge is gone' },
  { why: 'cart', task: 'Delete the second item from the shopping basket' },
  { why: 'cart', task: 'Change the quantity of the mug in the cart to 3 and check the subtotal' },
  { why: 'cart', task: 'Add the red shoes to my wishlist' },
  { why: 'cart', task: 'Empty the cart and check that it says "Your cart is empty"' },
  { why: 'cart', task: 'Add two products to the compare list and open the comparison' },
  { why: 'cart', task: 'Apply the coupon code SAVE10 in the cart and check the discount line' },
  // checkout opened, not ordered
  { why: 'navigation', task: 'Go to the cart and click Checkout; the "Checkout: Your Information" page should open' },
  { why: 'navigation', task: 'Open the checkout form and check that first name, last name and postal code are required' },
  { why: 'navigation', task: 'Start the checkout, then click Cancel and check you are back on the cart' },
  { why: 'draft', task: 'Proceed to checkout, fill in the shipping details and click Continue to reach the overview, without finishing' },
  { why: 'navigation', task: 'Click "Proceed to checkout" and verify the order summary lists the backpack' },
  { why: 'navigation', task: 'On the checkout overview, click Cancel and check you are back on the products page' },
  // forms filled in, not submitted; validation
  { why: 'draft', task: 'Fill in the contact form with an invalid email and check that the error "Email is invalid" shows' },
  { why: 'draft', task: 'Type a message into the feedback box and check the character counter says 20/500' },
  { why: 'draft', task: 'Leave the name field empty on the signup form and check that the Create account button is disabled' },
  { why: 'draft', task: 'Enter a weak password on the registration page and check the strength meter says Weak' },
  { why: 'draft', task: 'Open the new project dialog, type "Apollo" as the name and press Cancel' },
  { why: 'draft', task: 'Start writing a comment and check that the Post button becomes enabled' },
  { why: 'draft', task: 'Select a file in the upload dialog and check the file name is shown before uploading' },
  // filters, sort, search, tabs, view
  { why: 'view', task: 'Sort the products by price from low to high and check the first one is the cheapest' },
  { why: 'view', task: 'Filter the orders by status Shipped and check that 3 rows remain' },
  { why: 'view', task: 'Remove the "Shipped" filter and check all orders are listed again' },
  { why: 'view', task: 'Clear the search box and check that all 6 products are listed' },
  { why: 'view', task: 'Search for "lamp" and check the first result is Desk Lamp' },
  { why: 'view', task: 'Switch to the Settings tab and check the heading says Settings' },
  { why: 'view', task: 'Toggle dark mode and check the background turns dark' },
  { why: 'view', task: 'Change the page size of the table to 50 rows' },
  { why: 'view', task: 'Change the language of the page to German and check the heading reads "Willkommen"' },
  { why: 'view', task: 'Collapse the sidebar and expand it again' },
  { why: 'view', task: 'Go to page 2 of the results and check it shows items 11 to 20' },
  { why: 'view', task: 'Show only active todos with the Active filter' },
  { why: 'view', task: 'Drag the slider to 3 and check the value reads 3' },
  // navigation and reading
  { why: 'navigation', task: 'Click the Orders link in the menu and check the Orders page opens' },
  { why: 'read', task: 'Open the first article and check that its author is shown' },
  { why: 'read', task: 'Check that the Delete button is disabled for read-only users' },
  { why: 'read', task: 'Verify that the order history lists ORD-1001 as cancelled' },
  { why: 'read', task: 'Check the pricing page shows the Pro plan at $20 per month' },
  { why: 'read', task: 'Hover over the share icon and check the tooltip says "Share"' },
  { why: 'read', task: 'Make sure the "Publish" button is visible on the editor toolbar' },
  { why: 'read', task: 'Open the invite dialog and check that it has an email field' },
  { why: 'read', task: 'Check the download link points to /files/report.pdf' },
  { why: 'read', task: 'Open the Payments page and check the last payment is $20' },
  // sign-in with given credentials and out
  { why: 'sign-in', task: 'Log in with tomsmith / SuperSecretPassword! and check the secure area opens' },
  { why: 'sign-in', task: 'Sign in as standard_user with password secret_sauce, then log out from the menu' },
  { why: 'sign-in', task: 'Try to log in with a wrong password and check the error message' },
  { why: 'sign-in', task: 'Log in as the demo user and check that the dashboard greets them by name' },
  // dialogs
  { why: 'dialog', task: 'Click "Delete project", then press Cancel in the confirmation dialog and check the project is still there' },
  { why: 'dialog', task: 'Open the menu and close it again with Escape' },
  { why: 'dialog', task: 'Dismiss the cookie banner' },
  { why: 'dialog', task: 'Close the welcome modal and check the dashboard is visible' },
  { why: 'dialog', task: 'Click "Click for JS Confirm", press Cancel and check the result says "You clicked: Cancel"' },
  // local demo state the run can take back itself
  { why: 'local', task: "Add a todo 'buy milk' and check that it is the only item in the list" },
  { why: 'local', task: 'Tick the first todo as completed and check the counter says 1 item left' },
  { why: 'local', task: 'Mark all todos as complete, then untick them again' },
  { why: 'local', task: 'Tick checkbox 1 and untick checkbox 2 on the Checkboxes page' },
  { why: 'local', task: 'Pick "Option 2" from the dropdown and check it is selected' },
  { why: 'local', task: 'Press the up arrow key in the number field and check it shows 2' },
  { why: 'local', task: 'Reset App State from the menu and check that the cart badge is gone' },

  // Round 2 (see EFFECT_TASKS).
  { why: 'cart', task: 'Add three items to the basket and check the total' },
  { why: 'cart', task: 'Remove the voucher from the basket' },
  { why: 'navigation', task: 'Click "Go to checkout" and check the address form shows' },
  { why: 'draft', task: 'Type an email into the newsletter field and check the Subscribe button is enabled' },
  { why: 'view', task: 'Sort the table by name descending' },
  { why: 'view', task: 'Filter the list to show only unread messages' },
  { why: 'read', task: 'Open the Delete account page and check the warning text' },
  { why: 'read', task: 'Check the Export button is disabled without data' },
  { why: 'read', task: 'Hover the avatar and check the menu opens' },
  { why: 'sign-in', task: 'Log in as jane with password hunter2 and check the greeting' },
  { why: 'view', task: 'Switch between the Monthly and Yearly tabs on the pricing page' },
  { why: 'view', task: 'Expand the FAQ item "How do I pay?"' },
  { why: 'view', task: 'Search for "invoice" in the help center' },
  { why: 'dialog', task: 'Open the share dialog and close it' },
  { why: 'dialog', task: 'Click Cancel on the new project form' },
  { why: 'view', task: 'Zoom in on the product image' },
  { why: 'navigation', task: 'Go back to the previous page' },
  { why: 'draft', task: 'Select Blue in the color picker and check the preview turns blue' },
  { why: 'cart', task: 'Increase the quantity in the cart to 2' },
  { why: 'read', task: 'Check that the checkout page shows a Place order button' },
  { why: 'view', task: 'Play the intro video and pause it' },
  { why: 'read', task: 'Scroll to the footer and check the copyright year' },
  { why: 'navigation', task: 'Open the calendar and go to next month' },
  { why: 'draft', task: 'Uncheck "Remember me" on the login form' },
];
