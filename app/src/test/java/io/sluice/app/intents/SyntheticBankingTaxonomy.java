package io.sluice.app.intents;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A synthetic but realistic 77-intent retail-banking taxonomy (the size of a fine-grained real set),
 * generated from templates the team wrote: each intent names two or three ways customers say what they
 * want, and sentence frames (greetings, urgency, politeness, detail) wrap them. Training and held-out
 * messages use different frames and a different random stream, so the held-out ones are never training
 * texts. Nothing here is copied from any data set.
 */
final class SyntheticBankingTaxonomy {

    /** One intent: key, class, description, what customers say (the core of each message). */
    record Spec(String key, String priority, String description, List<String> cores) {
    }

    /** One generated message. */
    record Message(String text, String intent, String priority) {
    }

    static final List<Spec> INTENTS = List.of(
        // S: urgent, fraud, complaints
        s("card_stolen", "S", "the card was stolen", "someone stole my card", "my wallet with my bank card was stolen", "my card got stolen at the station"),
        s("card_lost", "S", "the card is lost", "I lost my debit card", "I can't find my card anywhere", "I think I dropped my card somewhere"),
        s("fraud_transaction", "S", "a payment the customer did not make", "there is a payment I never made", "someone used my card without permission", "I see a purchase I did not authorise"),
        s("account_hacked", "S", "someone else got into the account", "someone logged into my account", "my online banking was hacked", "a stranger changed my login details"),
        s("phishing_report", "S", "a suspicious message pretending to be the bank", "I got a text pretending to be you", "a fake bank email asked for my PIN", "someone called claiming to be the bank"),
        s("complaint_staff", "S", "complains about staff", "the branch staff were rude to me", "your agent hung up on me", "I want to complain about the employee who served me"),
        s("complaint_service", "S", "complains about the service", "your service is terrible", "I am fed up with how you handle my case", "this is the third time nobody helps me"),
        s("account_frozen_urgent", "S", "the account was blocked and money is needed now", "my account is blocked and I need money now", "you froze my account and rent is due today", "I cannot access any of my money"),
        s("wrong_transfer_urgent", "S", "money went to the wrong person and must be stopped", "I sent money to the wrong person, stop it", "I transferred to a scammer, please recall it", "please reverse the transfer I just made by mistake"),
        s("card_swallowed", "S", "an ATM kept the card", "the cash machine swallowed my card", "the ATM kept my card and I am abroad", "my card is stuck inside the ATM"),
        s("identity_theft", "S", "someone uses the customer's identity", "someone opened an account in my name", "a loan was taken out using my identity", "my identity has been stolen"),
        // A: something went wrong
        s("transfer_failed", "A", "a transfer did not go through", "my transfer failed", "the money I sent never arrived", "the bank transfer bounced back"),
        s("transfer_pending", "A", "a transfer is stuck as pending", "my transfer is still pending", "the payment has been processing for days", "why is my transfer not complete yet"),
        s("card_declined", "A", "the card was refused when paying", "my card was declined at the shop", "the payment with my card got rejected", "my card does not work for online payments"),
        s("double_charge", "A", "charged twice for one purchase", "I was charged twice", "the same payment appears two times", "you took the money twice for one order"),
        s("wrong_fee", "A", "a fee that should not be there", "there is a fee I don't understand", "you charged me a fee by mistake", "why was I charged a maintenance fee"),
        s("atm_no_cash", "A", "the ATM debited but gave no cash", "the ATM did not give me the money", "cash was not dispensed but my account was debited", "I withdrew cash but nothing came out"),
        s("atm_wrong_amount", "A", "the ATM gave the wrong amount", "the ATM gave me less money than I asked", "I got the wrong amount from the cash machine", "the machine paid out only part of my withdrawal"),
        s("refund_missing", "A", "a refund has not arrived", "my refund has not arrived", "the shop refunded me but I see nothing", "where is the money the merchant returned"),
        s("direct_debit_wrong", "A", "a direct debit took the wrong amount", "a direct debit took too much", "a standing order was paid twice", "a subscription debit I cancelled was still taken"),
        s("salary_missing", "A", "an expected salary payment is missing", "my salary has not come in", "my wages are missing from my account", "my employer paid but I did not receive it"),
        s("exchange_rate_wrong", "A", "a payment abroad used a bad rate", "I got a bad exchange rate on my payment", "the currency conversion was wrong", "you used the wrong rate for my euro payment"),
        s("cash_deposit_missing", "A", "deposited cash is not on the account", "the cash I deposited is not showing", "my deposit at the branch is missing", "I put money in the machine and it is not there"),
        s("cheque_not_cleared", "A", "a cheque has not cleared", "my cheque has not cleared", "the cheque I paid in is still not credited", "why is my check deposit on hold"),
        s("card_not_arrived", "A", "an ordered card has not arrived", "my new card never arrived", "I am still waiting for my card", "the replacement card did not come in the post"),
        s("pin_blocked", "A", "the PIN is blocked after wrong attempts", "my PIN is blocked", "I entered the wrong PIN too many times", "my card is locked because of the PIN"),
        s("app_login_failed", "A", "cannot log in to the app", "I can't log in to the app", "the app says my password is wrong", "login keeps failing on my phone"),
        s("app_crash", "A", "the banking app crashes or shows errors", "the banking app keeps crashing", "the app shows an error when I open it", "the app freezes on the payments screen"),
        s("verification_failed", "A", "identity verification failed", "my identity verification failed", "the app rejected my ID photo", "it will not accept my passport for verification"),
        s("payment_reversed", "A", "a payment was reversed without reason", "my payment was reversed", "a payment I made came back", "the money I paid was returned for no reason"),
        s("overdraft_charge", "A", "charged interest or fees for an overdraft", "I was charged overdraft interest", "you charged me for going into overdraft", "why did I pay an overdraft fee"),
        s("loan_payment_issue", "A", "a loan instalment went wrong", "my loan payment did not go through", "the loan instalment was taken twice", "my mortgage payment failed this month"),
        s("top_up_failed", "A", "adding money to the account failed", "my top up failed", "adding money from my card did not work", "the top up was declined"),
        s("contactless_not_working", "A", "contactless payments fail", "contactless does not work on my card", "tap to pay keeps failing", "my phone payment is refused at the till"),
        s("statement_error", "A", "a mistake on a statement", "there is an error on my statement", "my statement shows the wrong balance", "a transaction on the statement is wrong"),
        // B: questions
        s("balance_check", "B", "asks for the balance", "what is my balance", "how much money do I have", "show me my account balance"),
        s("exchange_rates", "B", "asks about exchange rates", "what is today's exchange rate", "how much is one dollar in euros", "what rate do you give for pounds"),
        s("open_account", "B", "how to open an account", "how do I open an account", "I want to open a new bank account", "what do I need to become a customer"),
        s("close_account", "B", "how to close an account", "how can I close my account", "I want to close my bank account", "what is needed to shut my account"),
        s("card_activation", "B", "how to activate a card", "how do I activate my new card", "my card came, how do I start using it", "where do I switch on my card"),
        s("order_new_card", "B", "how to order a card", "how can I order a new card", "I would like an extra card", "can I get a second card for my account"),
        s("change_pin", "B", "how to change the PIN", "how do I change my PIN", "I want to set a new PIN", "where can I update my card PIN"),
        s("branch_hours", "B", "branch opening hours", "when is the branch open", "what are your opening hours", "is the branch open on Saturday"),
        s("branch_location", "B", "where branches and ATMs are", "where is the nearest branch", "find an ATM near me", "which branch is closest to the station"),
        s("loan_info", "B", "loan conditions and rates", "what are your loan rates", "can I get a personal loan", "how much could I borrow"),
        s("mortgage_info", "B", "mortgage conditions", "tell me about your mortgages", "what is the mortgage interest rate", "how do I apply for a home loan"),
        s("savings_rates", "B", "savings interest rates", "what interest does the savings account pay", "which savings account is best", "how much interest will I earn"),
        s("credit_card_apply", "B", "how to apply for a credit card", "how do I apply for a credit card", "can I get a credit card", "what credit cards do you offer"),
        s("credit_limit_increase", "B", "asks for a higher credit limit", "can you raise my credit limit", "I want a higher limit on my card", "how do I increase my credit line"),
        s("transfer_limits", "B", "how much can be transferred", "what is the maximum I can transfer", "is there a daily transfer limit", "how much can I send per day"),
        s("international_transfer", "B", "how to send money abroad", "how do I send money abroad", "can I transfer to another country", "what do I need for an international payment"),
        s("transfer_time", "B", "how long transfers take", "how long does a transfer take", "when will my payment arrive", "how fast are transfers to other banks"),
        s("fees_info", "B", "what the accounts and cards cost", "what fees do you charge", "is the account free", "how much does the card cost per year"),
        s("change_address", "B", "how to change the address", "how do I change my address", "I moved house, where do I update it", "I need to update my postal address"),
        s("change_phone", "B", "how to change the phone number", "how do I change my phone number", "I have a new mobile number", "where do I update my contact number"),
        s("reset_password", "B", "how to reset the online banking password", "how do I reset my password", "I forgot my online banking password", "where can I set a new password"),
        s("statement_request", "B", "how to get a statement", "how can I get a bank statement", "I need my statements for last year", "where do I download my statement"),
        s("direct_debit_setup", "B", "how to set up a direct debit", "how do I set up a direct debit", "can I create a standing order", "I want to pay my bills automatically"),
        s("cancel_direct_debit", "B", "how to cancel a direct debit", "how do I cancel a direct debit", "I want to stop a standing order", "where do I end a recurring payment"),
        s("apple_google_pay", "B", "adding the card to a phone wallet", "can I add my card to my phone wallet", "how do I pay with my phone", "does the card work with mobile payments"),
        s("travel_notice", "B", "using the card abroad", "can I use my card abroad", "I am travelling next week, will my card work", "do I need to tell you before I travel"),
        s("joint_account", "B", "joint accounts", "can I open a joint account", "how do I add my partner to my account", "can two people share an account"),
        s("student_account", "B", "student accounts", "do you have a student account", "what do students get", "I am starting university, which account"),
        s("business_account", "B", "business accounts", "do you offer business accounts", "I need an account for my company", "how do I open an account for my shop"),
        s("cash_withdrawal_limit", "B", "how much cash can be withdrawn", "how much cash can I withdraw", "what is the ATM withdrawal limit", "can I take out more cash per day"),
        s("cheque_book", "B", "ordering cheques", "how do I order a cheque book", "I need new cheques", "can I still get a check book"),
        s("virtual_card", "B", "virtual cards for online shopping", "can I get a virtual card", "how do I create a card for online shopping", "what is a disposable card number"),
        s("account_interest", "B", "interest on the current account", "do I earn interest on my current account", "how is interest calculated", "when is interest paid"),
        s("insurance_info", "B", "insurance products", "do you sell travel insurance", "what insurance comes with my account", "is my phone insured by the card"),
        s("investment_info", "B", "investing and funds", "can I invest through the bank", "what funds do you offer", "how do I buy shares in the app"),
        s("pension_info", "B", "pension products", "do you offer pension plans", "how do I save for retirement", "can I move my pension to you"),
        s("contact_support", "B", "how to reach a person", "how can I talk to a person", "what is your phone number", "is there live chat support"),
        s("app_features", "B", "what the app can do", "what can I do in the app", "can I freeze my card in the app", "does the app show spending by category"),
        s("currency_account", "B", "holding other currencies", "can I hold dollars in my account", "do you have multi currency accounts", "can I keep euros with you"),
        s("age_requirements", "B", "age rules for accounts", "how old do I need to be to open an account", "can my child have an account", "is there an account for teenagers"),
        s("documents_needed", "B", "which documents are needed", "what documents do I need", "which ID do you accept", "do I need proof of address"),
        s("payment_alerts", "B", "notifications about payments", "how do I turn on payment alerts", "can I get a text for every payment", "set up balance notifications"));

    private static final String[] TRAIN_FRAMES = {
        "%s", "hi, %s", "%s please", "hello, %s?", "%s, thanks", "excuse me, %s", "good morning, %s", "%s. can you help",
        "quick question: %s", "%s, what should I do"};
    private static final String[] HELD_OUT_FRAMES = {
        "hey there, %s", "%s!!", "sorry to bother you but %s", "%s, any advice?", "I need help, %s", "%s asap",
        "could you tell me, %s", "um %s"};
    private static final String[] DETAILS = {"", " today", " yesterday", " this morning", " on my savings account",
        " with my visa", " since last week", " again"};

    private static Spec s(String key, String priority, String description, String... cores) {
        return new Spec(key, priority, description, List.of(cores));
    }

    static List<Message> training(int perIntent) {
        return generate(TRAIN_FRAMES, perIntent, 77);
    }

    static List<Message> heldOut(int perIntent) {
        return generate(HELD_OUT_FRAMES, perIntent, 1307);
    }

    private static List<Message> generate(String[] frames, int perIntent, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Message> out = new ArrayList<>();
        for (Spec spec : INTENTS) {
            Set<String> texts = new LinkedHashSet<>();
            for (int tries = 0; texts.size() < perIntent && tries < perIntent * 20; tries++) {
                String core = spec.cores().get(random.nextInt(spec.cores().size()));
                String detail = DETAILS[random.nextInt(DETAILS.length)];
                String text = String.format(frames[random.nextInt(frames.length)], core + detail);
                texts.add(random.nextInt(5) == 0 ? capitalise(text) : text);
            }
            texts.forEach(t -> out.add(new Message(t, spec.key(), spec.priority())));
        }
        return out;
    }

    private static String capitalise(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /** The intents as JSONL (class given per intent): {"intent", "priority", "description"}. */
    static String definitionsJsonl() {
        StringBuilder out = new StringBuilder();
        for (Spec spec : INTENTS) {
            out.append("{\"intent\":\"").append(spec.key()).append("\",\"priority\":\"").append(spec.priority())
                .append("\",\"description\":\"").append(spec.description()).append("\",\"source\":\"synthetic\"}\n");
        }
        return out.toString();
    }

    /** Examples as CSV (byte order mark, CRLF, every text quoted; the class given on each row too). */
    static String examplesCsv(List<Message> messages) {
        StringBuilder out = new StringBuilder("\uFEFFtext,intent,priority,id\r\n");
        int id = 0;
        for (Message m : messages) {
            out.append('"').append(m.text().replace("\"", "\"\"")).append("\",").append(m.intent()).append(',')
                .append(m.priority()).append(',').append(id++).append("\r\n");
        }
        return out.toString();
    }

    /** An evaluation file: text,intent,priority. */
    static String evaluationCsv(List<Message> messages) {
        StringBuilder out = new StringBuilder("text,intent,priority\n");
        for (Message m : messages) {
            out.append('"').append(m.text().replace("\"", "\"\"")).append("\",").append(m.intent()).append(',')
                .append(m.priority()).append('\n');
        }
        return out.toString();
    }

    private SyntheticBankingTaxonomy() {
    }
}
