package crm;

/** The tools' input schemas, as a server author writes them by hand. */
final class Schemas {

    static final String REGISTER = """
            {"type":"object","properties":{
              "email":{"type":"string","pattern":"^[^@\\\\s]+@[^@\\\\s]+\\\\.[a-z]{2,}$","description":"work email"},
              "name":{"type":"string","minLength":1,"maxLength":80},
              "plan":{"type":"string","enum":["free","pro","team"]}},
             "required":["email","name"],"additionalProperties":false}""";

    static final String USER_ID = """
            {"type":"object","properties":{
              "user_id":{"type":"string","pattern":"^usr_[0-9]+$"}},
             "required":["user_id"],"additionalProperties":false}""";

    static final String CHANGE_PLAN = """
            {"type":"object","properties":{
              "user_id":{"type":"string","pattern":"^usr_[0-9]+$"},
              "plan":{"type":"string","enum":["free","pro","team"]}},
             "required":["user_id","plan"],"additionalProperties":false}""";

    static final String DOMAIN = """
            {"type":"object","properties":{
              "domain":{"type":"string","minLength":3}},
             "required":["domain"]}""";

    private Schemas() {
    }
}
